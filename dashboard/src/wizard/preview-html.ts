/** Turns the server-rendered preview into a page of the creator's local files. */
import type { TPreviewRequest, TSiteSettings, TTemplateId } from '@dropsite/shared';
import type { TChosenFile } from '../upload/chosen-files.ts';

const PLACEHOLDER = /\/api\/preview-file\/([A-Za-z0-9_-]{1,64})/g;

/** Replaces every file placeholder with the file's object URL; unknown ids are left alone. */
export function fillPreviewHtml(html: string, objectUrls: ReadonlyMap<string, string>): string {
  return html.replace(PLACEHOLDER, (match, id: string) => objectUrls.get(id) ?? match);
}

export function buildPreviewRequest(
  draft: { title: string; description: string; authorName: string; template: TTemplateId; settings: TSiteSettings },
  files: readonly TChosenFile[],
  sizes: ReadonlyMap<string, { width: number; height: number }>,
): TPreviewRequest {
  return {
    title: draft.title,
    description: draft.description,
    authorName: draft.authorName,
    template: draft.template,
    settings: draft.settings,
    files: files.map(({ id, file }) => ({ clientId: id, name: file.name, type: file.type, size: file.size, ...(sizes.get(id) ?? {}) })),
  };
}
