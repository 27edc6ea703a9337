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
