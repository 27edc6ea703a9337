/** Client delivery demo: a campaign's final images, the delivery agreement and a ZIP of web-size copies. */
import { pdf, photo, type TDemoManifest } from '../manifest.ts';

const SAGE = ['#1a1f1b', '#38453c', '#8fa393', '#d7e2d6', '#f7faf5'];
const BLUSH = ['#201818', '#4d3535', '#b88a84', '#efd3cc', '#fff6f2'];

export const clientDelivery: TDemoManifest = {
  template: 'client-delivery',
  title: 'Aurora Skincare — Spring Campaign Finals',
  description:
    'Your final selects from the spring campaign shoot, retouched and ready. Approve each image (or ask for changes), then download the full-resolution files or the web-size ZIP. The agreement covers usage.',
  authorName: 'Kit Moreau Studio',
  contactInfo: { email: 'studio@kitmoreau.example', website: 'https://kitmoreau.example' },
  settings: { enableFavorites: true, enableApprovals: true, enableComments: false },
  files: [
    photo('aurora-01-hero.jpg', 'details', 81, SAGE, { group: 'Finals' }),
    photo('aurora-02-model.jpg', 'portrait', 82, BLUSH, { group: 'Finals', width: 1333, height: 2000 }),
    photo('aurora-03-flatlay.jpg', 'abstract', 83, SAGE, { group: 'Finals' }),
    photo('aurora-04-studio.jpg', 'portrait', 84, SAGE, { group: 'Finals' }),
    pdf('Aurora-Delivery-Agreement.pdf', 'delivery-agreement'),
    {
      name: 'Aurora-Web-Size.zip',
      type: 'application/zip',
      recipe: {
        kind: 'zip',
        entries: [
          { name: 'Aurora-Web-Size/aurora-01-hero-1200.jpg', image: 'aurora-01-hero.jpg', width: 1200 },
          { name: 'Aurora-Web-Size/aurora-02-model-1200.jpg', image: 'aurora-02-model.jpg', width: 1200 },
          { name: 'Aurora-Web-Size/aurora-03-flatlay-1200.jpg', image: 'aurora-03-flatlay.jpg', width: 1200 },
          { name: 'Aurora-Web-Size/aurora-04-studio-1200.jpg', image: 'aurora-04-studio.jpg', width: 1200 },
          { name: 'Aurora-Web-Size/README.txt', text: 'Web-size copies (1200 px, sRGB) for social and the website. Full-resolution files are on the delivery page.\n' },
        ],
      },
    },
  ],
};
