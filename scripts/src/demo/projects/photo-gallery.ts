/** Photo gallery demo: a wedding shoot in four folders; the first photograph is the featured one. */
import { photo, type TDemoManifest } from '../manifest.ts';

const WARM = ['#1c1410', '#4a3428', '#9c7660', '#e2c3a8', '#fff3e6'];
const ROSE = ['#1f1517', '#4b2d33', '#a0656f', '#e8bcc0', '#fff1ee'];
const DUSK = ['#141826', '#2f3352', '#7d6b8c', '#e0a98f', '#ffe4c7'];
const IVORY = ['#2e2622', '#6d5d52', '#cdbdb0', '#eee3d8', '#fffaf3'];

export const photoGallery: TDemoManifest = {
  template: 'photo-gallery',
  title: 'Amelia & Jonah at Hollowbrook Farm',
  description:
    'A late-summer wedding in the orchard at Hollowbrook: the portraits, the ceremony under the old barn arch, a long table of candles, and the small things in between. Tap the heart on the ones you love.',
  authorName: 'Maya Lindqvist Photography',
  contactInfo: { email: 'hello@mayalindqvist.example', website: 'https://mayalindqvist.example' },
  settings: { enableFavorites: true, enableApprovals: true, enableComments: false },
  files: [
    photo('golden-hour-portrait.jpg', 'portrait', 11, WARM, { group: 'Portraits', people: 2 }),
    photo('the-vows.jpg', 'ceremony', 12, IVORY, { group: 'Ceremony' }),
    photo('string-lights.jpg', 'reception', 13, WARM, { group: 'Reception' }),
    photo('the-rings.jpg', 'details', 14, IVORY, { group: 'Details' }),
    photo('amelia-by-the-window.jpg', 'portrait', 15, ROSE, { group: 'Portraits', width: 1333, height: 2000 }),
    photo('first-look-under-the-arch.jpg', 'ceremony', 16, DUSK, { group: 'Ceremony', width: 1333, height: 2000 }),
    photo('candles-and-toasts.jpg', 'reception', 17, ROSE, { group: 'Reception' }),
    photo('rings-on-linen.jpg', 'details', 18, ROSE, { group: 'Details', width: 1600, height: 2000 }),
  ],
};
