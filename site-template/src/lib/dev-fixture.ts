/** A site to look at under `astro dev` (the builder always passes its own). Never bundled into the build. */
import { DEFAULT_PUBLIC_SITE_SETTINGS, type TSiteFile, type TSiteRenderModel } from '@dropsite/shared';

const file = (id: string, name: string, kind: TSiteFile['kind'], size: number, type: string): TSiteFile => ({
  id,
  name,
  type,
  size,
  kind,
  url: `https://picsum.photos/seed/${id}/1600/1067`,
  downloadUrl: `https://picsum.photos/seed/${id}/1600/1067`,
  thumbnailUrl: kind === 'image' ? `https://picsum.photos/seed/${id}/300/200` : null,
  width: kind === 'image' ? 1600 : null,
  height: kind === 'image' ? 1067 : null,
  thumbnailWidth: kind === 'image' ? 300 : null,
  thumbnailHeight: kind === 'image' ? 200 : null,
  format: kind === 'image' ? 'jpeg' : null,
  uploadedAt: '2025-03-04T10:00:00.000Z',
  group: null,
  details: {},
});

export const DEV_SITE: TSiteRenderModel = {
  projectId: 'dev-project',
  slug: 'dev-site',
  title: 'Harbour Lights — Final Selects',
  subLine: 'Twelve frames from the October shoot, edited and ready for print.',
  tagLine: 'Client delivery',
  description: '',
  authorName: 'Mira Solberg',
  template: 'photo-gallery',
  theme: '',
  settings: DEFAULT_PUBLIC_SITE_SETTINGS,
  contactInfo: { email: 'mira@example.com', website: '', instagram: '', twitter: '', linkedin: '', github: '' },
  files: [
    file('a1', 'harbour-01.jpg', 'image', 2_400_000, 'image/jpeg'),
    file('a2', 'harbour-02.jpg', 'image', 2_100_000, 'image/jpeg'),
    file('a3', 'harbour-03.jpg', 'image', 1_900_000, 'image/jpeg'),
    file('d1', 'contact-sheet.pdf', 'pdf', 5_400_000, 'application/pdf'),
  ],
  publishedAt: '2025-03-04T10:00:00.000Z',
  siteOrigin: 'http://localhost:4321',
};
