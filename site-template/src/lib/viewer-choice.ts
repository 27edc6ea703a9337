/**
 * Which viewer shows a non-image file, from its kind and what the builder derived (spec 4 'Viewer
 * choice', with decisions 3: presentations and office documents through their converted PDF,
 * a download card with the reason when no preview could be made).
 */
import { getExtension, type TSiteFile } from '@dropsite/shared';

export type TFileViewer = 'pdf' | 'text' | 'video' | 'audio' | 'archive' | 'download';

/** Files the API serves inline as text/plain (control-api files/content-type.ts). */
const INLINE_TEXT_EXTENSIONS = new Set(['txt', 'md', 'csv', 'log', 'json']);
/** Video containers the API serves inline and browsers play. */
const PLAYABLE_VIDEO_EXTENSIONS = new Set(['mp4', 'm4v', 'mov', 'webm', 'ogv']);
const PLAYABLE_AUDIO_EXTENSIONS = new Set(['mp3', 'wav', 'ogg', 'oga', 'm4a', 'aac', 'flac']);

export const NO_PREVIEW_REASON = "A preview isn't available for this file type.";

export function isInlineText(file: Pick<TSiteFile, 'name'>): boolean {
  return INLINE_TEXT_EXTENSIONS.has(getExtension(file.name));
}

/** The url a PDF viewer loads for a file: its rendering when there is one, a PDF itself otherwise. */
export function pdfUrlOf(file: Pick<TSiteFile, 'kind' | 'url' | 'details'>): string | null {
  if (file.details.pdfUrl) return file.details.pdfUrl;
  return file.kind === 'pdf' ? file.url : null;
}

export function chooseFileViewer(file: TSiteFile): TFileViewer {
  const ext = getExtension(file.name);
  switch (file.kind) {
    case 'pdf':
      return 'pdf';
    case 'presentation':
      return file.details.pdfUrl ? 'pdf' : 'download';
    case 'video':
      return PLAYABLE_VIDEO_EXTENSIONS.has(ext) && !file.details.previewUnavailable ? 'video' : 'download';
    case 'audio':
      return PLAYABLE_AUDIO_EXTENSIONS.has(ext) ? 'audio' : 'download';
    case 'archive':
      return file.details.archive ? 'archive' : 'download';
    default:
      if (file.details.pdfUrl) return 'pdf';
      if (file.details.text || isInlineText(file)) return 'text';
      return 'download';
  }
}

/** Why a file gets the download card instead of a viewer. */
export function downloadCardReason(file: TSiteFile): string {
  if (file.details.previewUnavailable) return file.details.previewUnavailable;
  if (file.kind === 'video') return "This video format can't be played in the browser. Download it to watch it.";
  if (file.kind === 'audio') return "This audio format can't be played in the browser. Download it to listen.";
  if (file.kind === 'archive') return "The contents of this archive couldn't be listed. Download it to open it.";
  if (file.kind === 'presentation') return "A preview of this presentation isn't available. Download it to open it.";
  return NO_PREVIEW_REASON;
}
