/** The demo sites' PDF documents: real text a visitor can read, search and select. */
import type { TImageRecipe } from './images.ts';
import type { TDocumentId } from './manifest.ts';
import { PdfDocument, type TJpeg, type TRgb } from './pdf.ts';

/** Draws a picture for a document (a scene at a small size, as JPEG). */
export type TPictureSource = (recipe: Omit<TImageRecipe, 'kind' | 'format'>) => Promise<TJpeg>;

const WHITE: TRgb = [255, 255, 255];

/**
 * A band of `colour` across the top of the first page with the title in white bold and a line or two
 * in their own colours under it; the text after it starts 10 points below the band.
 */
function drawMasthead(
  doc: PdfDocument,
  band: { height: number; colour: TRgb },
  title: { y: number; text: string; size: number },
  lines: ReadonlyArray<{ y: number; text: string; size: number; colour: TRgb }>,
): void {
  doc.rect(0, 0, doc.width, band.height, band.colour);
  doc.text(doc.margin, title.y, title.text, { size: title.size, font: 'bold', colour: WHITE });
  for (const line of lines) doc.text(doc.margin, line.y, line.text, { size: line.size, colour: line.colour });
  doc.y = band.height + 10;
}

/** The title in bold at the top margin and a muted line under it, on a plain page. */
function drawTitle(doc: PdfDocument, title: { text: string; size: number }, subtitle: { text: string; size: number }): void {
  doc.text(doc.margin, doc.margin + 20, title.text, { size: title.size, font: 'bold' });
  doc.text(doc.margin, doc.margin + 42, subtitle.text, { size: subtitle.size, colour: doc.muted });
}

async function resume(picture: TPictureSource): Promise<Buffer> {
  const doc = new PdfDocument('Noor Haddad — Résumé', { accent: [15, 118, 110] });
  const photoJpeg = await picture({ scene: 'portrait', seed: 21, palette: ['#101418', '#23313a', '#4f6b73', '#9fc2bf', '#e9f4ef'], width: 480, height: 480 });
  doc.rect(0, 0, doc.width, 150, [240, 247, 245]);
  doc.image(photoJpeg, doc.margin, 30, 90, 90);
  doc.text(doc.margin + 110, 68, 'Noor Haddad', { size: 26, font: 'bold' });
  doc.text(doc.margin + 110, 90, 'Product Designer · Lisbon', { size: 12, colour: doc.muted });
  doc.text(doc.margin + 110, 110, 'noor@noorhaddad.example  ·  noorhaddad.example', { size: 10, colour: doc.accent });
  doc.y = 160;
  doc.eyebrow('Profile');
  doc.paragraph(
    'Product designer with eight years in fintech, news and public services. I turn messy, high-stakes flows into calm interfaces, and I test them with the people who use them. Comfortable from research to shipped code review.',
  );
  doc.eyebrow('Experience');
  const jobs: Array<[string, string, string, string[]]> = [
    [
      'Lead Product Designer',
      'Atlas Bank',
      '2023 – now',
      [
        'Led the redesign of spending insights for 2.1M customers; support contacts about statements fell 34 %.',
        'Built the design system used by 6 product teams (tokens, 80 components, accessibility audits).',
      ],
    ],
    [
      'Senior Product Designer',
      'Orbit News',
      '2020 – 2023',
      [
        'Designed the live-desk dashboard editors use to publish breaking news, cutting time to publish from 9 to 3 minutes.',
        'Ran weekly research sessions with editors in four newsrooms.',
      ],
    ],
    ['Product Designer', 'Tidewater City Council', '2018 – 2020', ['Wayfinding and digital signage for the harbour district; bilingual, high-contrast, tested on site.']],
  ];
  for (const [role, company, dates, points] of jobs) {
    doc.ensure(80);
    doc.y += 16;
    doc.text(doc.margin, doc.y, role, { size: 12, font: 'bold' });
    doc.text(doc.width - doc.margin - 90, doc.y, dates, { size: 10, colour: doc.muted });
    doc.y += 4;
    doc.paragraph(company, { size: 10.5, colour: doc.accent, after: 2 });
    doc.bullets(points, 10.5);
  }
  doc.eyebrow('Skills');
  doc.table(
    [
      ['Skill', 'Level'],
      ['Interaction design and prototyping', 'Expert · 95 %'],
      ['User research and usability testing', 'Advanced · 85 %'],
      ['Design systems and accessibility (WCAG 2.2)', 'Advanced · 90 %'],
      ['Front-end (HTML, CSS, React)', 'Working · 70 %'],
    ],
    [0.7, 0.3],
    { header: true },
  );
  doc.eyebrow('Education');
  doc.paragraph('MA Interaction Design, Lisbon School of Design, 2018  ·  BA Communication Design, 2016', { size: 10.5 });
  return doc.toBuffer();
}

function eventSchedule(): Buffer {
  const doc = new PdfDocument('Lumen 2027 — Schedule', { accent: [234, 88, 12] });
  drawMasthead(doc, { height: 130, colour: [26, 11, 46] }, { y: 62, text: 'Lumen 2027', size: 30 }, [
    { y: 88, text: 'Design & Technology Summit  ·  Lisbon  ·  Friday 14 May 2027', size: 12, colour: [255, 181, 98] },
    { y: 108, text: 'Armazém 16, Rua da Cintura do Porto, Lisbon', size: 10, colour: [220, 210, 235] },
  ]);
  doc.eyebrow('Schedule');
  doc.table(
    [
      ['Time', 'Session', 'Type', 'Speaker'],
      ['08:30', 'Registration and coffee', 'Networking', '—'],
      ['09:30', 'Opening keynote: Designing for the next billion screens', 'Keynote', 'Ana Ribeiro'],
      ['10:30', 'Coffee break', 'Break', '—'],
      ['11:00', 'Workshop: Prototyping with real data', 'Workshop', 'Tomás Lima'],
      ['11:00', 'Workshop: Accessible motion', 'Workshop', 'Priya Nair'],
      ['12:30', 'Lunch on the terrace', 'Break', '—'],
      ['14:00', 'Panel: AI and the craft of design', 'Panel', 'Ana Ribeiro, Jonas Weber, Mei Chen'],
      ['15:30', 'Keynote: Small teams, big systems', 'Keynote', 'Jonas Weber'],
      ['16:30', 'Coffee break', 'Break', '—'],
      ['17:00', 'Workshop: Critique club', 'Workshop', 'Mei Chen'],
      ['18:30', 'River terrace drinks', 'Networking', 'Everyone'],
    ],
    [0.12, 0.48, 0.16, 0.24],
    { header: true, size: 9.5 },
  );
  doc.eyebrow('Speakers');
  doc.bullets([
    'Ana Ribeiro — Head of Design, Mar Labs. Twenty years of interfaces from ATMs to AR.',
    'Jonas Weber — Founder, Fieldwork. Builds design systems for public services.',
    'Mei Chen — Principal Designer, Kite. Writes about critique and design culture.',
    'Tomás Lima and Priya Nair — workshop leads, Lumen Collective.',
  ]);
  doc.eyebrow('Getting there');
  doc.paragraph(
    'Cais do Sodré station is a 10-minute walk along the river. The venue is step-free throughout; quiet rooms are on the first floor. Tickets include lunch and the evening drinks.',
  );
  return doc.toBuffer();
}

async function specSheet(picture: TPictureSource): Promise<Buffer> {
  const doc = new PdfDocument('Tessel One — Spec Sheet', { accent: [180, 130, 60] });
  const hero = await picture({ scene: 'product', seed: 40, palette: [], finish: 'natural', width: 720, height: 720 });
  drawTitle(doc, { text: 'Tessel One', size: 28 }, { text: 'Wireless speaker  ·  Specification sheet', size: 12 });
  doc.image(hero, doc.width - doc.margin - 170, doc.margin - 6, 170, 170);
  doc.y = doc.margin + 60;
  doc.paragraph('Room-filling sound from a speaker the size of a hardback. Solid oak or matte aluminium, a single dial, and a battery that lasts a long weekend.', {
    width: doc.contentWidth - 190,
  });
  doc.y = Math.max(doc.y, doc.margin + 180);
  doc.eyebrow('Specifications');
  doc.table(
    [
      ['', ''],
      ['Output', '40 W RMS, two 3" woofers and a 1" silk-dome tweeter'],
      ['Frequency response', '48 Hz – 20 kHz (± 3 dB)'],
      ['Battery', '20 hours at moderate volume; USB-C charging in 2.5 hours'],
      ['Connectivity', 'Bluetooth 5.3 (AAC, aptX Adaptive), Wi-Fi multi-room, USB-C audio in'],
      ['Dimensions', '228 × 160 × 92 mm'],
      ['Weight', '2.1 kg (oak), 1.8 kg (aluminium)'],
      ['Finishes', 'Black (anodised aluminium), White (powder-coated aluminium), Natural (solid oak)'],
      ['Water resistance', 'IP54: splashes and dust'],
    ],
    [0.3, 0.7],
  );
  doc.eyebrow('In the box');
  doc.bullets(['Tessel One speaker', 'USB-C to USB-C cable (1.5 m)', 'Quick start guide and two-year warranty card']);
  doc.eyebrow('Sustainability');
  doc.paragraph('Oak from certified European forests; aluminium with 70 % recycled content; packaging is paper only. Every part can be replaced with a screwdriver.');
  return doc.toBuffer();
}

async function caseStudyReport(picture: TPictureSource): Promise<Buffer> {
  const doc = new PdfDocument('Harbour Line — Case Study', { accent: [242, 165, 65], paper: undefined });
  doc.rect(0, 0, doc.width, doc.height * 0.42, [11, 29, 46]);
  const cover = await picture({ scene: 'landscape', seed: 51, palette: ['#0b1d2e', '#173a5e', '#4f7ca8', '#9cc3e0', '#e6f1fa'], width: 960, height: 480 });
  doc.image(cover, 0, 0, doc.width, doc.height * 0.42);
  doc.text(doc.margin, doc.height * 0.42 + 50, 'Harbour Line', { size: 32, font: 'bold' });
  doc.text(doc.margin, doc.height * 0.42 + 76, 'Rebranding a city ferry service  ·  Case study by Studio Meridian', { size: 12, colour: doc.muted });
  doc.y = doc.height * 0.42 + 90;
  doc.eyebrow('The brief');
  doc.paragraph(
    'Harbour Line carries nine million riders a year across six routes, yet in research most visitors could not find a pier, tell routes apart or buy a ticket on their phone. The council asked for a brand that works on a pier sign in the rain and on a 4-inch screen.',
  );
  doc.eyebrow('Results after six months');
  doc.table(
    [
      ['Measure', 'Before', 'After'],
      ['Riders buying tickets on mobile', '18 %', '61 %'],
      ['Wrong-pier boardings reported', '1,240 a month', '310 a month'],
      ['Rider satisfaction (survey, out of 10)', '6.1', '8.4'],
    ],
    [0.56, 0.22, 0.22],
    { header: true },
  );
  doc.newPage();
  const phases: Array<[string, string, number, string]> = [
    ['01  Discover', 'Two weeks on the piers: 64 rider interviews, 300 ticket-machine observations, and a map of every sign on the network.', 51, 'landscape'],
    ['02  Define', 'One idea from the research: the water is the map. Each route became a colour and a line that follows its real course.', 52, 'abstract'],
    ['03  Design', 'A typeface cut for pier signage, route colours tested for colour blindness and glare, and a ticket flow of three taps.', 53, 'abstract'],
    ['04  Deliver', 'Rolled out pier by pier over eight weeks without closing a route; a kit of parts lets the council add piers on its own.', 54, 'venue'],
  ];
  for (const [title, text, seed, scene] of phases) {
    doc.ensure(150);
    const img = await picture({ scene: scene as TImageRecipe['scene'], seed, palette: ['#0b1d2e', '#173a5e', '#1f7a8c', '#bfdbf7', '#e1e5f2'], width: 480, height: 320 });
    const top = doc.y + 10;
    doc.image(img, doc.margin, top, 180, 120);
    doc.text(doc.margin + 200, top + 18, title, { size: 15, font: 'bold' });
    doc.y = top + 26;
    doc.paragraph(text, { x: doc.margin + 200, size: 10.5 });
    doc.y = Math.max(doc.y, top + 130);
  }
  doc.eyebrow('Learnings');
  doc.bullets([
    'Test signs where they will hang: glare on the water changed our palette twice.',
    'Ship the ticket flow first; it paid for the rest of the programme in four months.',
    'A kit of parts outlives a style guide: the council has since added two piers alone.',
  ]);
  return doc.toBuffer();
}

async function pitchDeck(picture: TPictureSource): Promise<Buffer> {
  const ink: TRgb = [236, 240, 250];
  const accent: TRgb = [91, 140, 255];
  const deck = new PdfDocument('Lumora AI — Series A', { width: 960, height: 540, margin: 60, accent, ink, muted: [160, 172, 196], paper: [10, 15, 26] });
  const slide = (eyebrow: string, title: string) => {
    if (deck.y !== deck.margin) deck.newPage();
    deck.rect(0, 0, 960, 6, accent);
    deck.text(60, 70, eyebrow.toUpperCase(), { size: 11, font: 'bold', colour: accent });
    deck.text(60, 112, title, { size: 32, font: 'bold' });
    deck.text(840, 510, 'Lumora AI', { size: 10, colour: deck.muted });
    deck.y = 140;
  };
  const card = (x: number, y: number, w: number, h: number, big: string, small: string) => {
    deck.rect(x, y, w, h, [24, 33, 52]);
    deck.text(x + 20, y + 48, big, { size: 26, font: 'bold', colour: accent });
    for (const [i, line] of deck.wrap(small, 12, w - 40).entries()) deck.text(x + 20, y + 76 + i * 17, line, { size: 12 });
  };
  // Cover.
  deck.rect(60, 150, 110, 28, accent);
  deck.text(74, 169, 'SERIES A', { size: 12, font: 'bold', colour: WHITE });
  deck.text(60, 240, 'Lumora AI', { size: 54, font: 'bold' });
  deck.text(60, 285, 'Demand forecasts for independent retail.', { size: 22, colour: deck.muted });
  deck.text(60, 440, 'Raising $8M  ·  2027', { size: 14, colour: accent });
  deck.y = 141;
  slide('The problem', 'Independent shops guess, and guessing is expensive');
  deck.paragraph(
    'A typical independent grocer throws away 9 % of what it buys and runs out of its best sellers twice a week. Big chains have forecasting teams; the 1.2 million independent stores in Europe have a spreadsheet and a hunch.',
    { size: 16, width: 780 },
  );
  card(60, 300, 250, 150, '9 %', 'of stock bought is wasted');
  card(340, 300, 250, 150, '2 × a week', 'best sellers out of stock');
  card(620, 300, 280, 150, '€38bn', 'lost margin a year in EU independent retail');
  slide('The solution', 'Forecasts a shop owner can act on, every morning');
  const screen = await picture({
    scene: 'screen',
    seed: 61,
    palette: ['#0a0f1a', '#1c2a44', '#5b8cff', '#7ee0c3', '#ffd166'],
    width: 900,
    height: 600,
    lines: ['Lumora · Store forecasts'],
  });
  deck.image(screen, 520, 150, 380, 253);
  for (const point of [
    'Connects to the till in ten minutes: no data team needed.',
    'Tomorrow’s order list per product, with the reason behind each number.',
    'Learns local events, weather and seasonality per store.',
  ]) {
    deck.paragraph(`•  ${point}`, { size: 15, width: 430, after: 10 });
  }
  slide('Market opportunity', 'A large market nobody serves well');
  card(60, 170, 260, 170, '1.2M', 'independent food and general stores in Europe');
  card(350, 170, 260, 170, '€4.3bn', 'yearly spend on stock planning tools we can reach');
  card(640, 170, 260, 170, '€520M', 'serviceable market in our first five countries');
  slide('Business model', 'Three plans, priced per store');
  const plans: Array<[string, string, string]> = [
    ['Starter', '€49 / month', 'Daily forecasts for up to 500 products; email order lists.'],
    ['Growth', '€129 / month', 'Unlimited products, supplier ordering, waste reports.'],
    ['Group', '€99 / store / month', 'Five stores and up: shared stock, head-office dashboard.'],
  ];
  for (const [i, [name, price, text]] of plans.entries()) card(60 + i * 290, 170, 260, 200, price, `${name}: ${text}`);
  slide('Early traction', '412 paying stores, 14 % month-on-month growth');
  card(60, 170, 260, 170, '412', 'paying stores in Portugal, Spain and France');
  card(350, 170, 260, 170, '€610k', 'annual recurring revenue, 118 % net revenue retention');
  card(640, 170, 260, 170, '-31 %', 'average waste in a store’s first three months');
  slide('Team', 'Built by people who ran shops and shipped models');
  card(60, 170, 260, 200, 'Inês Duarte', 'CEO. Ran her family’s three grocery stores for six years; ex-McKinsey retail.');
  card(350, 170, 260, 200, 'Daniel Okafor', 'CTO. Led forecasting at a European grocery delivery company; PhD in ML.');
  card(640, 170, 260, 200, 'Sofia Marchetti', 'COO. Built the partner network at a point-of-sale company to 20,000 stores.');
  slide('Roadmap', 'The next four quarters');
  const quarters: Array<[string, string]> = [
    ['Q1 2027', 'Supplier ordering for the top 50 wholesalers'],
    ['Q2 2027', 'Launch in Germany and Italy'],
    ['Q3 2027', 'Group plan: multi-store stock sharing'],
    ['Q4 2027', '1,500 stores; fresh produce forecasts'],
  ];
  for (const [i, [q, text]] of quarters.entries()) card(60 + i * 215, 180, 195, 200, q, text);
  slide('The ask', '$8M Series A to reach 5,000 stores by end of 2028');
  deck.table(
    [
      ['Use of funds', 'Share'],
      ['Product and data science (18 hires)', '45 %'],
      ['Go-to-market in four new countries', '35 %'],
      ['Partnerships with till and POS providers', '12 %'],
      ['Operations and reserve', '8 %'],
    ],
    [0.75, 0.25],
    { header: true, size: 14 },
  );
  deck.text(60, 470, 'Inês Duarte, CEO  ·  founders@lumora.example  ·  lumora.example', { size: 14, colour: accent });
  return deck.toBuffer();
}

function onePager(): Buffer {
  const doc = new PdfDocument('Lumora AI — One-pager', { accent: [59, 102, 214] });
  drawMasthead(doc, { height: 110, colour: [10, 15, 26] }, { y: 58, text: 'Lumora AI', size: 28 }, [
    { y: 82, text: 'Demand forecasts for independent retail  ·  Series A, $8M', size: 12, colour: [160, 180, 230] },
  ]);
  const section = (title: string, text: string) => {
    doc.eyebrow(title);
    doc.paragraph(text, { size: 10.5 });
  };
  section('Problem', 'Independent shops waste 9 % of the stock they buy and run out of best sellers twice a week. They have no forecasting team and no time.');
  section(
    'Solution',
    'Lumora connects to the till in ten minutes and sends tomorrow’s order list every morning, with the reason behind each number. It learns local events, weather and seasonality per store.',
  );
  section(
    'Traction',
    '412 paying stores in three countries; €610k ARR; 14 % month-on-month growth; 118 % net revenue retention; stores cut waste by 31 % on average in three months.',
  );
  section('Business model', 'Subscriptions per store: Starter €49, Growth €129, Group €99 per store per month (five stores and up).');
  section(
    'Team',
    'Inês Duarte (CEO, ran three grocery stores, ex-McKinsey), Daniel Okafor (CTO, led forecasting at a grocery delivery company), Sofia Marchetti (COO, built a 20,000-store partner network).',
  );
  section(
    'The ask',
    '$8M Series A: 45 % product and data science, 35 % go-to-market in four countries, 12 % POS partnerships, 8 % operations. Goal: 5,000 stores by the end of 2028.',
  );
  section('Contact', 'Inês Duarte  ·  founders@lumora.example  ·  lumora.example');
  return doc.toBuffer();
}

function shotNotes(): Buffer {
  const doc = new PdfDocument('Alpine Field Kit — Shoot Notes', { accent: [34, 110, 80] });
  drawTitle(doc, { text: 'Shoot notes', size: 26 }, { text: 'Alpine field kit  ·  Lauterbrunnen valley  ·  12 – 14 October 2026', size: 11 });
  doc.y = doc.margin + 56;
  doc.eyebrow('Light');
  doc.table(
    [
      ['Day', 'Blue hour', 'Sunrise', 'Sunset', 'Plan'],
      ['Mon 12', '07:02', '07:41', '18:39', 'Ridge at dawn, valley at dusk'],
      ['Tue 13', '07:03', '07:42', '18:37', 'Waterfalls mid-morning, timelapse from the ridge'],
      ['Wed 14', '07:05', '07:44', '18:35', 'Reserve day for weather'],
    ],
    [0.12, 0.14, 0.14, 0.14, 0.46],
    { header: true },
  );
  doc.eyebrow('Shot list');
  doc.bullets([
    'Ridge at dawn: wide, foreground rocks, sun just clearing the Jungfrau shoulder.',
    'Layers: 200 mm compression of ridgelines in haze, three to five layers.',
    'Valley lights after sunset: 30-second exposures from the church path.',
    'Timelapse: 2-second interval, 45 minutes of cloud over the ridge.',
  ]);
  doc.eyebrow('Safety');
  doc.paragraph('Tell the hut warden the day’s route. Turn back by 15:00 whatever the light is doing. Spikes and a head torch on every climb.');
  return doc.toBuffer();
}

function deliveryAgreement(): Buffer {
  const doc = new PdfDocument('Aurora Skincare — Delivery Agreement', { accent: [120, 140, 120] });
  drawTitle(doc, { text: 'Delivery and licence agreement', size: 22 }, { text: 'Kit Moreau Studio  ·  for Aurora Skincare Ltd  ·  Spring campaign 2027', size: 11 });
  doc.y = doc.margin + 56;
  const clause = (title: string, text: string) => {
    doc.heading(title, 12);
    doc.paragraph(text, { size: 10.5 });
  };
  clause(
    '1. The work',
    'Four final retouched images from the spring campaign shoot of 3 March 2027, delivered as full-resolution JPEG (sRGB, 2000 px and larger) and as a ZIP of 1200 px web-size copies.',
  );
  clause(
    '2. Approval',
    'The client approves each image on the delivery page or asks for changes there. Two rounds of retouching changes per image are included; further rounds are billed at the day rate.',
  );
  clause(
    '3. Licence',
    'On payment, the client may use the images for 24 months worldwide in digital advertising, social media, the client’s website, email and point-of-sale material. Print advertising above 10,000 copies and broadcast use need a separate licence.',
  );
  clause(
    '4. Credit and copyright',
    'Copyright stays with Kit Moreau Studio. Editorial use carries the credit “Photo: Kit Moreau Studio”. The studio may show the images in its portfolio after the campaign launch.',
  );
  clause('5. Fees and payment', 'Creative fee and licence: €6,400. Retouching: €1,200. Total €7,600 excluding VAT, payable within 30 days of delivery.');
  clause('6. Files', 'The delivery page stays online for 90 days. The studio keeps an archive copy for two years.');
  doc.space(24);
  doc.table(
    [
      ['For Kit Moreau Studio', 'For Aurora Skincare Ltd'],
      ['Kit Moreau, Director', 'Hannah Okoye, Brand Director'],
      ['Date: 10 March 2027', 'Date:'],
    ],
    [0.5, 0.5],
    { header: true },
  );
  return doc.toBuffer();
}

/** The PDF bytes of a demo document. */
export async function renderDocument(id: TDocumentId, picture: TPictureSource): Promise<Buffer> {
  switch (id) {
    case 'resume':
      return resume(picture);
    case 'event-schedule':
      return eventSchedule();
    case 'spec-sheet':
      return specSheet(picture);
    case 'case-study-report':
      return caseStudyReport(picture);
    case 'pitch-deck':
      return pitchDeck(picture);
    case 'one-pager':
      return onePager();
    case 'shot-notes':
      return shotNotes();
    case 'delivery-agreement':
      return deliveryAgreement();
  }
}
