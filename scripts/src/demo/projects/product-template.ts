/** Product showcase demo: a speaker in three finishes (one folder per colour) and its spec sheet. */
import { pdf, photo, type TDemoManifest, type TDemoFile } from '../manifest.ts';

const finish = (colour: 'Black' | 'White' | 'Natural', seed: number): TDemoFile[] => {
  const key = colour.toLowerCase() as 'black' | 'white' | 'natural';
  return [
    photo(`tessel-one-${key}-front.jpg`, 'product', seed, [], { group: colour, finish: key }),
    photo(`tessel-one-${key}-detail.jpg`, 'product', seed + 1, [], { group: colour, finish: key }),
  ];
};

export const productTemplate: TDemoManifest = {
  template: 'product-template',
  title: 'Tessel One — Wireless Speaker',
  description: 'A room-filling speaker the size of a hardback: 40 W, 20 hours on a charge, solid oak or matte aluminium. Choose a finish to see it, and download the spec sheet.',
  authorName: 'Tessel Audio',
  contactInfo: { email: 'press@tessel-audio.example', website: 'https://tessel-audio.example' },
  settings: { enableFavorites: true, enableApprovals: false, enableComments: false },
  files: [...finish('Black', 40), ...finish('White', 42), ...finish('Natural', 44), pdf('Tessel-One-Spec-Sheet.pdf', 'spec-sheet')],
};
