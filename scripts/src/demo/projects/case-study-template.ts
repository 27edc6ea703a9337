/** Case study demo: a rebrand told in four numbered phases, with the full report. */
import { pdf, photo, type TDemoManifest } from '../manifest.ts';

export const caseStudyTemplate: TDemoManifest = {
  template: 'case-study-template',
  title: 'Harbour Line — Rebranding a City Ferry',
  description:
    'Harbour Line carried 9 million riders a year with a brand nobody could find on a phone. In sixteen weeks we rebuilt its identity, signage and ticketing around one idea: the water is the map.',
  authorName: 'Studio Meridian',
  contactInfo: { email: 'studio@meridian.example', website: 'https://meridian.example' },
  settings: { enableFavorites: true, enableApprovals: false, enableComments: false },
  files: [
    photo('01-discover.jpg', 'landscape', 51, ['#0b1d2e', '#173a5e', '#4f7ca8', '#9cc3e0', '#e6f1fa']),
    photo('02-define.jpg', 'abstract', 52, ['#0b1d2e', '#173a5e', '#1f7a8c', '#bfdbf7', '#e1e5f2']),
    photo('03-design.jpg', 'abstract', 53, ['#08161f', '#0f3b4c', '#f2a541', '#f7d08a', '#fdf3e1']),
    photo('04-deliver.jpg', 'venue', 54, ['#0d1b24', '#1f3a4a', '#3f7f8c', '#9fd3d6', '#f0fbfb']),
    pdf('Harbour-Line-Case-Study.pdf', 'case-study-report'),
  ],
};
