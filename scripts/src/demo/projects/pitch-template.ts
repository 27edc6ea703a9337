/** Pitch demo: a Series A deck for a fictional AI company, its one-pager and a product screen. */
import { pdf, photo, type TDemoManifest } from '../manifest.ts';

export const pitchTemplate: TDemoManifest = {
  template: 'pitch-template',
  title: 'Lumora AI — Series A',
  description:
    'Lumora forecasts demand for independent retailers, so they order what will sell and stop throwing away what will not. We are raising an $8M Series A to reach 5,000 stores by the end of 2028.',
  authorName: 'Lumora AI',
  contactInfo: { email: 'founders@lumora.example', website: 'https://lumora.example' },
  settings: { enableFavorites: false, enableApprovals: true, enableComments: false },
  files: [
    pdf('Lumora-AI-Series-A-Deck.pdf', 'pitch-deck'),
    pdf('Lumora-AI-One-Pager.pdf', 'one-pager'),
    photo('lumora-forecasts-screen.jpg', 'screen', 61, ['#0a0f1a', '#1c2a44', '#5b8cff', '#7ee0c3', '#ffd166'], { lines: ['Lumora · Store forecasts'] }),
  ],
};
