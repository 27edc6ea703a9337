/** The shape of a demo site's sample project: what a creator would fill in, and the files they would drop. */
import type { TContactInfo, TSiteSettings, TTemplateId } from '@dropsite/shared';
import type { TImageRecipe } from './images.ts';

export type TDocumentId = 'resume' | 'event-schedule' | 'spec-sheet' | 'case-study-report' | 'pitch-deck' | 'one-pager' | 'shot-notes' | 'delivery-agreement';

/** How a sample file is made. */
export type TSampleRecipe =
  | TImageRecipe
  | { kind: 'pdf'; document: TDocumentId }
  | { kind: 'text'; text: string }
  /** A stored ZIP of text entries and smaller copies of the demo's own images (by file name). */
  | { kind: 'zip'; entries: ReadonlyArray<{ name: string; text: string } | { name: string; image: string; width: number }> }
  /** A few seconds of ffmpeg's generated video; left out where ffmpeg is not installed. */
  | { kind: 'video'; seconds: number; width: number; height: number };

export interface TDemoFile {
  name: string;
  /** The folder the file would have been dropped in. */
  group?: string;
  /** The MIME type a browser would send. */
  type: string;
  recipe: TSampleRecipe;
}

export interface TDemoManifest {
  template: TTemplateId;
  title: string;
  description: string;
  authorName: string;
  contactInfo: Partial<TContactInfo>;
  settings: Partial<TSiteSettings>;
  files: readonly TDemoFile[];
}

/** A photograph of the demo (JPEG unless `format` says otherwise). */
export function photo(
  name: string,
  scene: TImageRecipe['scene'],
  seed: number,
  palette: readonly string[],
  options: Partial<Omit<TImageRecipe, 'kind' | 'scene' | 'seed' | 'palette'>> & { group?: string } = {},
): TDemoFile {
  const { group, ...rest } = options;
  const format = rest.format ?? 'jpeg';
  return {
    name,
    ...(group ? { group } : {}),
    type: format === 'webp' ? 'image/webp' : 'image/jpeg',
    recipe: { kind: 'image', scene, seed, palette, width: 2000, height: 1333, format, ...rest },
  };
}

export function pdf(name: string, document: TDocumentId, group?: string): TDemoFile {
  return { name, ...(group ? { group } : {}), type: 'application/pdf', recipe: { kind: 'pdf', document } };
}
