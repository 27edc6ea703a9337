/**
 * The site's side of the viewer choice (shared/src/viewer.ts picks the viewer): the section
 * component that draws each viewer, the url a PDF viewer loads and why a file gets a download card.
 */
import type { TSiteFile, TViewer } from '@dropsite/shared';

export { chooseFileViewer } from '@dropsite/shared';

/** The section components of components/sections/: 'file' is FileSection.astro, one file with its viewer. */
type TSectionComponent = 'gallery' | 'multi-pdf' | 'file';

/**
 * The section component of every viewer, drawn by ViewerSections.astro. A record over all viewers:
 * a new viewer is a type error here until it has a component (for 'file', a branch in FileSection.astro).
 */
export const VIEWER_SECTIONS: Readonly<Record<TViewer, TSectionComponent>> = {
  gallery: 'gallery',
  'multi-pdf': 'multi-pdf',
  pdf: 'file',
  text: 'file',
  video: 'file',
  audio: 'file',
  archive: 'file',
  font: 'file',
  download: 'file',
};

export const NO_PREVIEW_REASON = "A preview isn't available for this file type.";

/** The url a PDF viewer loads for a file: its rendering when there is one, a PDF itself otherwise. */
export function pdfUrlOf(file: Pick<TSiteFile, 'kind' | 'url' | 'details'>): string | null {
  if (file.details.pdfUrl) return file.details.pdfUrl;
  return file.kind === 'pdf' ? file.url : null;
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
