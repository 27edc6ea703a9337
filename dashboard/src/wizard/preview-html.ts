/** Turns the server-rendered preview into a page of the creator's local files. */
import type { TContactField, TPreviewRequest, TSiteLook, TSiteSettings, TTemplateId } from '@dropsite/shared';
import { filledContactInfo } from '../upload/filled-contact-info.ts';
import type { TChosenFile } from '../upload/chosen-files.ts';

const PLACEHOLDER = /\/api\/preview-file\/([A-Za-z0-9_-]{1,64})/g;

/** Replaces every file placeholder with the file's object URL; unknown ids are left alone. */
export function fillPreviewHtml(html: string, objectUrls: ReadonlyMap<string, string>): string {
  return html.replace(PLACEHOLDER, (match, id: string) => objectUrls.get(id) ?? match);
}

/** The preview frame's page (GET /api/preview/frame) and the messages it exchanges with the wizard. */
export const PREVIEW_FRAME_PATH = '/api/preview/frame';
export const PREVIEW_READY_MESSAGE = 'dropsite-preview-ready';
export const PREVIEW_CONTENT_MESSAGE = 'dropsite-preview-content';

/** The inline script hashes POST /api/preview's policy allows (`sha256-…`, without quotes). */
export function scriptHashesOf(csp: string | null): string[] {
  return [...(csp ?? '').matchAll(/'(sha256-[A-Za-z0-9+/]{43}=)'/g)].map((m) => m[1]!);
}

/** The frame's URL: its policy allows the preview's inline scripts, named by these hashes. */
export function previewFrameUrl(scriptHashes: readonly string[]): string {
  const query = new URLSearchParams(scriptHashes.map((h) => ['script', h]));
  return `${PREVIEW_FRAME_PATH}?${query}`;
}

export function buildPreviewRequest(
  draft: {
    title: string;
    description: string;
    authorName: string;
    template: TTemplateId;
    look?: TSiteLook;
    settings: TSiteSettings;
    contactInfo?: Partial<Record<TContactField, string>>;
  },
  files: readonly TChosenFile[],
  sizes: ReadonlyMap<string, { width: number; height: number }>,
): TPreviewRequest {
  // Only valid details reach the preview (the details step does not continue otherwise); blank ones are left out.
  const contactInfo = filledContactInfo(draft.contactInfo);
  return {
    title: draft.title,
    description: draft.description,
    authorName: draft.authorName,
    template: draft.template,
    // The look the creator chose: the preview shows the site as it will be.
    ...(draft.look ? { style: draft.look.style, colorMode: draft.look.colorMode, heroLayout: draft.look.heroLayout, visitorModeToggle: draft.look.visitorModeToggle } : {}),
    settings: draft.settings,
    ...(contactInfo ? { contactInfo } : {}),
    files: files.map(({ id, file, group }) => ({
      clientId: id,
      name: file.name,
      type: file.type,
      size: file.size,
      ...(sizes.get(id) ?? {}),
      ...(group !== null ? { group } : {}),
    })),
  };
}
