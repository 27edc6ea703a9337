/** Universal demo: one of each kind of file, each in the viewer that suits it. */
import { pdf, photo, type TDemoManifest } from '../manifest.ts';

const README = `# Alpine field kit

Everything from the three-day shoot above the Lauterbrunnen valley, October 2026.

## What is here

- **ridge-at-dawn.jpg** — the hero frame, straight from the edit
- **Shoot-Notes.pdf** — shot list, locations and light times
- **gear-list.txt** — what went up the mountain
- **lut-presets.zip** — the three colour presets used in the edit
- **timelapse.mp4** — a few seconds of cloud from the ridge

## Licence

Personal use and editorial use with credit. Ask before using anything commercially.
`;

const GEAR = `Gear list — Alpine field kit, October 2026

Bodies        2 × full-frame mirrorless
Lenses        16-35 mm f/4, 24-70 mm f/2.8, 70-200 mm f/4
Support       carbon tripod, L-bracket, remote release
Filters       6-stop ND, circular polariser
Power         8 batteries, 2 × 20,000 mAh packs
Storage       4 × 128 GB cards, 2 × 2 TB SSD (one stays in the car)
Weather       rain covers, lens cloths, hand warmers
`;

const cube = (title: string, lift: number) =>
  `TITLE "${title}"\nLUT_3D_SIZE 2\n${[0, 1]
    .flatMap((b) => [0, 1].flatMap((g) => [0, 1].map((r) => `${Math.min(1, r + lift).toFixed(3)} ${Math.min(1, g + lift / 2).toFixed(3)} ${b.toFixed(3)}`)))
    .join('\n')}\n`;

export const universalFileTemplate: TDemoManifest = {
  template: 'universal',
  title: 'Alpine Field Kit',
  description: 'Photos, notes, presets and a timelapse from three days above the clouds. Every kind of file opens in its own viewer; download any of them, or everything at once.',
  authorName: 'Rafa Ortiz',
  contactInfo: { email: 'rafa@rafaortiz.example', website: 'https://rafaortiz.example' },
  settings: { enableFavorites: true, enableApprovals: false, enableComments: false },
  files: [
    photo('ridge-at-dawn.jpg', 'landscape', 71, ['#14213d', '#3a5a8c', '#a3b8d8', '#f3c98b', '#fff4dc']),
    pdf('Shoot-Notes.pdf', 'shot-notes'),
    { name: 'README.md', type: 'text/markdown', recipe: { kind: 'text', text: README } },
    { name: 'gear-list.txt', type: 'text/plain', recipe: { kind: 'text', text: GEAR } },
    {
      name: 'lut-presets.zip',
      type: 'application/zip',
      recipe: {
        kind: 'zip',
        entries: [
          { name: 'lut-presets/README.txt', text: 'Three looks from the Alpine edit. Load the .cube files in your editor as a colour lookup.\n' },
          { name: 'lut-presets/dawn-warm.cube', text: cube('Dawn warm', 0.08) },
          { name: 'lut-presets/glacier-cool.cube', text: cube('Glacier cool', 0.02) },
          { name: 'lut-presets/summit-neutral.cube', text: cube('Summit neutral', 0) },
          { name: 'previews/ridge-at-dawn-small.jpg', image: 'ridge-at-dawn.jpg', width: 640 },
        ],
      },
    },
    { name: 'timelapse.mp4', type: 'video/mp4', recipe: { kind: 'video', seconds: 4, width: 1280, height: 720 } },
  ],
};
