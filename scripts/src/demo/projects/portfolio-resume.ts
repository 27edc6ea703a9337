/** Portfolio / résumé demo: a designer's profile photograph, four pieces of work and a résumé. */
import { pdf, photo, type TDemoManifest } from '../manifest.ts';

export const portfolioResume: TDemoManifest = {
  template: 'portfolio-resume',
  title: 'Noor Haddad — Product Designer',
  description: 'Eight years designing calm, useful software for banks, newsrooms and city services. Selected work from 2022 to 2026, and my résumé.',
  authorName: 'Noor Haddad',
  contactInfo: { email: 'noor@noorhaddad.example', website: 'https://noorhaddad.example' },
  settings: { enableFavorites: true, enableApprovals: false, enableComments: false },
  files: [
    photo('noor-haddad.jpg', 'portrait', 21, ['#101418', '#23313a', '#4f6b73', '#9fc2bf', '#e9f4ef'], { group: 'Profile', width: 1600, height: 1600 }),
    photo('01-atlas-banking-app.webp', 'screen', 22, ['#0b1020', '#1b2440', '#5b7cfa', '#7ee0c3', '#ffd166'], {
      group: 'Work',
      format: 'webp',
      lines: ['Atlas · Spending overview'],
    }),
    photo('02-field-notes-identity.webp', 'abstract', 23, ['#1a1410', '#3d2b1f', '#d9822b', '#f2c14e', '#f7f0e1'], { group: 'Work', format: 'webp' }),
    photo('03-tidewater-wayfinding.webp', 'venue', 24, ['#0f1a1c', '#24413f', '#5c8a83', '#b7d3c6', '#f1f7ef'], { group: 'Work', format: 'webp' }),
    photo('04-orbit-newsroom-dashboard.webp', 'screen', 25, ['#120f1a', '#2a2140', '#b06cf0', '#ff8fab', '#ffd6a5'], {
      group: 'Work',
      format: 'webp',
      lines: ['Orbit · Live desk'],
    }),
    pdf('Noor-Haddad-Resume.pdf', 'resume'),
  ],
};
