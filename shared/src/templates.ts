/**
 * The template catalogue: every template a creator can pick, in the order the wizard and the
 * template gallery list them. The first five are the specification's wizard choices; the last
 * three are the gallery's other launch templates. Each has a demo site at `demoPath`, built by
 * the same site template and builder as a creator's site from a sample project in the repository.
 */
export const TEMPLATE_IDS = [
  'universal',
  'photo-gallery',
  'portfolio-resume',
  'event-template',
  'pitch-template',
  'product-template',
  'case-study-template',
  'client-delivery',
] as const;
export type TTemplateId = (typeof TEMPLATE_IDS)[number];

export interface TTemplateInfo {
  id: TTemplateId;
  name: string;
  /** One line for the wizard's choice and the gallery's card. */
  description: string;
  /** The public demo site of this template (a reserved slug). */
  demoPath: `/${string}`;
}

export const TEMPLATE_CATALOGUE: Record<TTemplateId, TTemplateInfo> = {
  universal: { id: 'universal', name: 'Universal', description: 'Every file type, each in the viewer that suits it.', demoPath: '/universal-file-template' },
  'photo-gallery': { id: 'photo-gallery', name: 'Photo Gallery', description: 'Image-first grid and lightbox for shoots and proofs.', demoPath: '/photo-gallery' },
  'portfolio-resume': { id: 'portfolio-resume', name: 'Portfolio / Resume', description: 'Your work and your story on one page.', demoPath: '/portfolio-resume' },
  'event-template': { id: 'event-template', name: 'Event', description: 'Photos, schedule and files from a day to remember.', demoPath: '/event-template' },
  'pitch-template': { id: 'pitch-template', name: 'Pitch', description: 'Decks, one-pagers and demos for a client or investor.', demoPath: '/pitch-template' },
  'product-template': { id: 'product-template', name: 'Product Showcase', description: 'A product in every colour, with its specs and documents.', demoPath: '/product-template' },
  'case-study-template': {
    id: 'case-study-template',
    name: 'Case Study',
    description: 'A project told from brief to result, with its deliverables.',
    demoPath: '/case-study-template',
  },
  'client-delivery': { id: 'client-delivery', name: 'Client Delivery', description: 'Final files for a client to review, approve and download.', demoPath: '/client-delivery' },
};

/**
 * The card pictures of each demo site, for the template gallery and the landing page: the demo's
 * link picture (its `og.png`, 1200x630: the demo's title over its first picture) made small, at
 * each width in each format. The demo seed makes them after each demo's build; the API serves them
 * at `demoPreviewPath`.
 */
export const DEMO_PREVIEW_WIDTHS = [400, 800] as const;
export type TDemoPreviewWidth = (typeof DEMO_PREVIEW_WIDTHS)[number];
/** Smallest first: a browser takes the first `<source>` whose type it decodes; JPEG is the `<img>`'s own. */
export const DEMO_PREVIEW_FORMATS = ['avif', 'webp', 'jpg'] as const;
export type TDemoPreviewFormat = (typeof DEMO_PREVIEW_FORMATS)[number];
export const DEMO_PREVIEW_CONTENT_TYPES: Record<TDemoPreviewFormat, string> = { avif: 'image/avif', webp: 'image/webp', jpg: 'image/jpeg' };

/** A card picture's height at a width: the link picture's 1200:630 shape (400 → 210, 800 → 420). */
export function demoPreviewHeight(width: number): number {
  return Math.round((width * 630) / 1200);
}

/** Where a demo's card picture of this width and format is served: `{demoPath}/preview-{width}.{format}`. */
export function demoPreviewPath(demoPath: string, width: TDemoPreviewWidth, format: TDemoPreviewFormat): string {
  return `${demoPath}/${demoPreviewFileName(width, format)}`;
}

/** The card picture's file name under its site: `preview-{width}.{format}`. */
export function demoPreviewFileName(width: TDemoPreviewWidth, format: TDemoPreviewFormat): string {
  return `preview-${width}.${format}`;
}

/** The width and format a card picture's file name stands for, or null when it names none. */
export function parseDemoPreviewFileName(name: string): { width: TDemoPreviewWidth; format: TDemoPreviewFormat } | null {
  for (const width of DEMO_PREVIEW_WIDTHS) {
    for (const format of DEMO_PREVIEW_FORMATS) if (name === demoPreviewFileName(width, format)) return { width, format };
  }
  return null;
}
