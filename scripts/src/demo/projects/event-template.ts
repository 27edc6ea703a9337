/** Event demo: the poster, the day's schedule and the venue. */
import { pdf, photo, type TDemoManifest } from '../manifest.ts';

const NIGHT = ['#1a0b2e', '#3c1a5b', '#ff6f59', '#ffb562', '#fff1d6'];
const STONE = ['#1d1a17', '#4a3f35', '#8a7560', '#cdb292', '#ffe9c4'];

export const eventTemplate: TDemoManifest = {
  template: 'event-template',
  title: 'Lumen 2027 Design Summit',
  description:
    'Design and technology, one day in Lisbon, 14 May 2027: keynotes, hands-on workshops, a panel on AI and craft, and an evening on the river terrace. The schedule and the venue are below; registration opens on 1 February.',
  authorName: 'Lumen Collective',
  contactInfo: { email: 'team@lumen-summit.example', website: 'https://lumen-summit.example' },
  settings: { enableFavorites: true, enableApprovals: false, enableComments: false },
  files: [
    // The poster's artwork: the site's hero sets the title over it.
    photo('lumen-2027-poster.jpg', 'poster', 31, NIGHT, { width: 1600, height: 2263 }),
    pdf('Lumen-2027-Schedule.pdf', 'event-schedule'),
    photo('main-hall.jpg', 'venue', 32, STONE, { group: 'Venue' }),
    photo('workshop-rooms.jpg', 'venue', 33, ['#14171c', '#2c3440', '#62748a', '#a9bdd0', '#eef4fa'], { group: 'Venue' }),
    photo('river-terrace.jpg', 'landscape', 34, ['#1b2a4a', '#3d4f7a', '#c97b63', '#e8a87c', '#ffd6a5'], { group: 'Venue' }),
  ],
};
