/** The eight demo sites' sample projects, in the catalogue's order. */
import type { TDemoManifest } from '../manifest.ts';
import { caseStudyTemplate } from './case-study-template.ts';
import { clientDelivery } from './client-delivery.ts';
import { eventTemplate } from './event-template.ts';
import { photoGallery } from './photo-gallery.ts';
import { pitchTemplate } from './pitch-template.ts';
import { portfolioResume } from './portfolio-resume.ts';
import { productTemplate } from './product-template.ts';
import { universalFileTemplate } from './universal-file-template.ts';

export const DEMO_MANIFESTS: readonly TDemoManifest[] = [
  universalFileTemplate,
  photoGallery,
  portfolioResume,
  eventTemplate,
  pitchTemplate,
  productTemplate,
  caseStudyTemplate,
  clientDelivery,
];
