/**
 * The demo sites' photographs: scenes composed as SVG (gradients, soft shapes, depth of field) and
 * rendered by sharp, then given film grain and a vignette. Deterministic: a scene and its seed always
 * make the same picture, so the samples can be rebuilt anywhere instead of being committed.
 */
import sharp from 'sharp';

export type TSceneKind = 'landscape' | 'portrait' | 'ceremony' | 'reception' | 'details' | 'venue' | 'product' | 'abstract' | 'poster' | 'screen';

export interface TImageRecipe {
  kind: 'image';
  scene: TSceneKind;
  seed: number;
  /** Colours of the scene, darkest first (3 to 5). */
  palette: readonly string[];
  width: number;
  height: number;
  format: 'jpeg' | 'webp';
  /** The product's finish (product scenes). */
  finish?: 'black' | 'white' | 'natural';
  /** Big words of a poster or screen. */
  lines?: readonly string[];
  /** People in a portrait: one (the default) or a couple. */
  people?: 1 | 2;
}

/** mulberry32: a small seeded generator, so each scene is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type TRandom = () => number;
const between = (rnd: TRandom, lo: number, hi: number) => lo + rnd() * (hi - lo);
const pick = <T>(rnd: TRandom, items: readonly T[]): T => items[Math.floor(rnd() * items.length) % items.length] as T;
const f1 = (n: number) => n.toFixed(1);

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);
}

function hexToRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** A colour between two (t from 0 to 1). */
function mix(a: string, b: string, t: number): string {
  const [ar, ag, ab] = hexToRgb(a);
  const [br, bg, bb] = hexToRgb(b);
  const c = (x: number, y: number) =>
    Math.round(x + (y - x) * t)
      .toString(16)
      .padStart(2, '0');
  return `#${c(ar, br)}${c(ag, bg)}${c(ab, bb)}`;
}

const col = (palette: readonly string[], i: number) => palette[Math.min(i, palette.length - 1)] ?? '#808080';

/**
 * Soft light without a filter pass: a radial gradient from the colour to transparent ('glow', a
 * Gaussian-like falloff) or an out-of-focus disc with a soft rim ('disc'). Each colour's gradient
 * is defined once per picture.
 */
class SoftFills {
  readonly #defs = new Map<string, string>();
  glow(colour: string): string {
    return this.#fill('g', colour, [
      [0, 1],
      [0.25, 0.78],
      [0.5, 0.42],
      [0.75, 0.13],
      [1, 0],
    ]);
  }
  disc(colour: string): string {
    return this.#fill('d', colour, [
      [0, 0.85],
      [0.7, 0.95],
      [0.88, 0.6],
      [1, 0],
    ]);
  }
  #fill(kind: string, colour: string, stops: Array<[number, number]>): string {
    const id = `${kind}${colour.replace('#', '')}`;
    if (!this.#defs.has(id)) {
      this.#defs.set(id, `<radialGradient id="${id}">${stops.map(([o, a]) => `<stop offset="${o}" stop-color="${colour}" stop-opacity="${a}"/>`).join('')}</radialGradient>`);
    }
    return `url(#${id})`;
  }
  get defs(): string {
    return [...this.#defs.values()].join('');
  }
}

/** Shapes blurred together (one filter pass for the whole group). */
const blurred = (level: 'S' | 'M' | 'L', shapes: string) => (shapes ? `<g filter="url(#blur${level})">${shapes}</g>` : '');

/** Out-of-focus lights: soft discs of a few sizes. */
function bokeh(soft: SoftFills, rnd: TRandom, w: number, h: number, count: number, colours: readonly string[], area = { y0: 0, y1: 1 }): string {
  let out = '';
  for (let i = 0; i < count; i++) {
    const r = between(rnd, w * 0.01, w * 0.06);
    const colour = pick(rnd, colours);
    const fill = r > w * 0.035 ? soft.glow(colour) : soft.disc(colour);
    out += `<circle cx="${f1(between(rnd, -0.05, 1.05) * w)}" cy="${f1(between(rnd, area.y0, area.y1) * h)}" r="${f1(r)}" fill="${fill}" opacity="${between(rnd, 0.15, 0.7).toFixed(2)}"/>`;
  }
  return out;
}

/** A ridge line across the frame from a smoothed random walk. */
function ridge(rnd: TRandom, w: number, h: number, base: number, rough: number, steps = 14): string {
  const pts: Array<[number, number]> = [];
  let y = base;
  for (let i = 0; i <= steps; i++) {
    y += between(rnd, -rough, rough);
    y = Math.min(Math.max(y, base - rough * 3), base + rough * 2);
    pts.push([(i / steps) * w, y]);
  }
  let d = `M0 ${h} L0 ${f1(pts[0]?.[1] ?? base)}`;
  for (let i = 1; i < pts.length; i++) {
    const [x0, y0] = pts[i - 1] ?? [0, base];
    const [x1, y1] = pts[i] ?? [w, base];
    d += ` Q${f1(x0 + (x1 - x0) / 2)} ${f1(y0)} ${f1(x1)} ${f1(y1)}`;
  }
  return `${d} L${w} ${h} Z`;
}

/** Blur filters over the frame (user space): shapes are blurred a group at a time, one pass per group. */
function defs(w: number, h: number): string {
  const region = `filterUnits="userSpaceOnUse" x="${f1(-w * 0.05)}" y="${f1(-h * 0.05)}" width="${f1(w * 1.1)}" height="${f1(h * 1.1)}"`;
  return `<defs>
  <filter id="blurS" ${region}><feGaussianBlur stdDeviation="${f1(w * 0.004)}"/></filter>
  <filter id="blurM" ${region}><feGaussianBlur stdDeviation="${f1(w * 0.012)}"/></filter>
  <filter id="blurL" ${region}><feGaussianBlur stdDeviation="${f1(w * 0.03)}"/></filter>
  <radialGradient id="vignette" cx="50%" cy="50%" r="75%"><stop offset="55%" stop-color="#000" stop-opacity="0"/><stop offset="100%" stop-color="#000" stop-opacity="0.55"/></radialGradient>
</defs>`;
}

function landscape(r: TImageRecipe, rnd: TRandom, soft: SoftFills): string {
  const { width: w, height: h, palette: p } = r;
  const horizon = h * between(rnd, 0.48, 0.6);
  const sunX = w * between(rnd, 0.25, 0.75);
  const sunY = horizon - h * between(rnd, 0.05, 0.22);
  let s = `<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${col(p, 0)}"/><stop offset="0.55" stop-color="${col(p, 2)}"/><stop offset="1" stop-color="${col(p, 4)}"/></linearGradient>`;
  s += `<rect width="${w}" height="${h}" fill="url(#sky)"/>`;
  s += `<circle cx="${f1(sunX)}" cy="${f1(sunY)}" r="${f1(w * 0.3)}" fill="${soft.glow(col(p, 4))}" opacity="0.6"/>`;
  s += `<circle cx="${f1(sunX)}" cy="${f1(sunY)}" r="${f1(w * 0.045)}" fill="${soft.disc('#fff6e0')}"/>`;
  s += `<linearGradient id="mist" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${col(p, 4)}" stop-opacity="0"/><stop offset="0.5" stop-color="${col(p, 4)}" stop-opacity="1"/><stop offset="1" stop-color="${col(p, 4)}" stop-opacity="0"/></linearGradient>`;
  const layers = 5;
  for (let i = 0; i < layers; i++) {
    const t = i / (layers - 1);
    const base = horizon + (h - horizon) * t * 0.75 - h * 0.08;
    const colour = mix(mix(col(p, 3), col(p, 2), 0.5), col(p, 0), 0.25 + t * 0.75);
    s += `<path d="${ridge(rnd, w, h, base, h * (0.02 + t * 0.025))}" fill="${colour}"/>`;
    if (i < layers - 1) s += `<rect x="0" y="${f1(base)}" width="${w}" height="${f1(h * 0.1)}" fill="url(#mist)" opacity="0.22"/>`;
  }
  s += bokeh(soft, rnd, w, h, 6, ['#ffffff', col(p, 4)], { y0: 0.1, y1: 0.4 }).replaceAll('opacity="0.', 'opacity="0.0');
  return s;
}

type THair = 'short' | 'long' | 'bun';

/** A figure from the chest up, backlit: a dark shape with a soft rim of light; long hair, a bun or short hair, and a veil. */
function silhouette(cx: number, base: number, scale: number, fill: string, rim: string, look: { hair?: THair; veil?: boolean } = {}): string {
  const headY = base - scale * 1.55;
  const hair =
    look.hair === 'long'
      ? `<path d="M${f1(cx - scale * 0.27)} ${f1(headY - scale * 0.05)} C${f1(cx - scale * 0.3)} ${f1(headY - scale * 0.42)} ${f1(cx + scale * 0.3)} ${f1(headY - scale * 0.42)} ${f1(cx + scale * 0.27)} ${f1(headY - scale * 0.05)} C${f1(cx + scale * 0.3)} ${f1(headY + scale * 0.25)} ${f1(cx + scale * 0.33)} ${f1(headY + scale * 0.45)} ${f1(cx + scale * 0.24)} ${f1(headY + scale * 0.55)} L${f1(cx - scale * 0.24)} ${f1(headY + scale * 0.55)} C${f1(cx - scale * 0.33)} ${f1(headY + scale * 0.45)} ${f1(cx - scale * 0.3)} ${f1(headY + scale * 0.25)} ${f1(cx - scale * 0.27)} ${f1(headY - scale * 0.05)} Z"/>`
      : look.hair === 'bun'
        ? `<circle cx="${f1(cx + scale * 0.12)}" cy="${f1(headY - scale * 0.3)}" r="${f1(scale * 0.13)}"/>`
        : '';
  const head = `${hair}<ellipse cx="${f1(cx)}" cy="${f1(headY)}" rx="${f1(scale * 0.23)}" ry="${f1(scale * 0.29)}"/>`;
  const body = `<path d="M${f1(cx - scale * 0.75)} ${f1(base)} C${f1(cx - scale * 0.72)} ${f1(base - scale * 0.75)} ${f1(cx - scale * 0.45)} ${f1(base - scale * 1.02)} ${f1(cx - scale * 0.12)} ${f1(base - scale * 1.12)} L${f1(cx - scale * 0.1)} ${f1(base - scale * 1.3)} L${f1(cx + scale * 0.1)} ${f1(base - scale * 1.3)} L${f1(cx + scale * 0.12)} ${f1(base - scale * 1.12)} C${f1(cx + scale * 0.45)} ${f1(base - scale * 1.02)} ${f1(cx + scale * 0.72)} ${f1(base - scale * 0.75)} ${f1(cx + scale * 0.75)} ${f1(base)} Z"/>`;
  const veil = look.veil
    ? `<path d="M${f1(cx)} ${f1(headY - scale * 0.3)} C${f1(cx + scale * 0.5)} ${f1(headY)} ${f1(cx + scale * 0.9)} ${f1(base - scale * 0.4)} ${f1(cx + scale * 1.05)} ${f1(base)} L${f1(cx - scale * 0.2)} ${f1(base)} C${f1(cx - scale * 0.1)} ${f1(base - scale * 0.6)} ${f1(cx - scale * 0.05)} ${f1(headY)} ${f1(cx)} ${f1(headY - scale * 0.3)} Z" fill="${rim}" opacity="0.3"/>`
    : '';
  // The veil behind the figure: only where it falls clear of the body does it catch the light.
  return `${veil}<g fill="none" stroke="${rim}" stroke-width="${f1(scale * 0.05)}" opacity="0.7" filter="url(#blurS)">${head}${body}</g><g fill="${fill}">${head}${body}</g>`;
}

function portrait(r: TImageRecipe, rnd: TRandom, soft: SoftFills): string {
  const { width: w, height: h, palette: p } = r;
  let s = `<radialGradient id="bg" cx="${between(rnd, 0.3, 0.7).toFixed(2)}" cy="0.35" r="0.9"><stop offset="0" stop-color="${col(p, 3)}"/><stop offset="0.6" stop-color="${col(p, 1)}"/><stop offset="1" stop-color="${col(p, 0)}"/></radialGradient>`;
  s += `<rect width="${w}" height="${h}" fill="url(#bg)"/>`;
  s += bokeh(soft, rnd, w, h, 34, [col(p, 2), col(p, 3), col(p, 4), '#fff2d6']);
  const scale = Math.min(w, h) * between(rnd, 0.34, 0.42);
  const cx = w * between(rnd, 0.38, 0.62);
  const ink = mix(col(p, 0), '#000000', 0.45);
  s += `<ellipse cx="${f1(cx)}" cy="${f1(h * 0.98)}" rx="${f1(scale * 1.4)}" ry="${f1(scale * 0.25)}" fill="${soft.glow('#000000')}" opacity="0.5"/>`;
  if (r.people === 2) {
    // A couple, leaning in: the one behind slightly taller and darker.
    s += silhouette(cx + scale * 0.42, h * 1.02, scale * 1.05, mix(ink, '#000000', 0.3), col(p, 4), { hair: 'short' });
    s += silhouette(cx - scale * 0.38, h * 1.04, scale * 0.95, ink, col(p, 4), { hair: 'bun', veil: true });
  } else {
    s += silhouette(cx, h * 1.02, scale, ink, col(p, 4), { hair: 'long' });
  }
  s += `<rect width="${w}" height="${h}" fill="${col(p, 4)}" opacity="0.06"/>`;
  return s;
}

function ceremony(r: TImageRecipe, rnd: TRandom, soft: SoftFills): string {
  const { width: w, height: h, palette: p } = r;
  let s = `<linearGradient id="wall" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${col(p, 1)}"/><stop offset="1" stop-color="${col(p, 0)}"/></linearGradient>`;
  s += `<rect width="${w}" height="${h}" fill="url(#wall)"/>`;
  const ax = w * 0.5;
  const aw = w * between(rnd, 0.3, 0.4);
  const top = h * 0.12;
  const floor = h * 0.78;
  s += `<path d="M${f1(ax - aw / 2)} ${f1(floor)} L${f1(ax - aw / 2)} ${f1(top + aw / 2)} A${f1(aw / 2)} ${f1(aw / 2)} 0 0 1 ${f1(ax + aw / 2)} ${f1(top + aw / 2)} L${f1(ax + aw / 2)} ${f1(floor)} Z" fill="${col(p, 4)}" opacity="0.9"/>`;
  s += `<circle cx="${f1(ax)}" cy="${f1(top + aw * 0.6)}" r="${f1(aw * 0.7)}" fill="${soft.glow('#fffaf0')}" opacity="0.7"/>`;
  let rays = '';
  for (let i = 0; i < 7; i++) {
    const x = ax + between(rnd, -aw * 0.4, aw * 0.4);
    const spread = between(rnd, w * 0.05, w * 0.14);
    rays += `<polygon points="${f1(x - w * 0.01)},${f1(top + aw * 0.3)} ${f1(x + w * 0.01)},${f1(top + aw * 0.3)} ${f1(x + spread)},${f1(h)} ${f1(x - spread * 0.4)},${f1(h)}" fill="#fff7e6" opacity="${between(rnd, 0.05, 0.14).toFixed(2)}"/>`;
  }
  s += blurred('M', rays);
  s += `<linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${col(p, 2)}"/><stop offset="1" stop-color="${col(p, 0)}"/></linearGradient>`;
  s += `<rect y="${f1(floor)}" width="${w}" height="${f1(h - floor)}" fill="url(#floor)"/>`;
  s += `<polygon points="${f1(ax - aw * 0.18)},${f1(floor)} ${f1(ax + aw * 0.18)},${f1(floor)} ${f1(ax + w * 0.2)},${h} ${f1(ax - w * 0.2)},${h}" fill="${col(p, 3)}" opacity="0.5"/>`;
  const scale = h * 0.2;
  s += silhouette(ax - scale * 0.42, floor + h * 0.02, scale, mix(col(p, 0), '#000', 0.6), '#fff3da', { hair: 'bun', veil: true });
  s += silhouette(ax + scale * 0.45, floor + h * 0.02, scale * 1.06, mix(col(p, 0), '#000', 0.7), '#fff3da');
  // Petals in the air.
  for (let i = 0; i < 40; i++) {
    s += `<ellipse cx="${f1(between(rnd, 0, w))}" cy="${f1(between(rnd, 0, h))}" rx="${f1(w * 0.006)}" ry="${f1(w * 0.003)}" transform="rotate(${f1(between(rnd, 0, 180))})" fill="${pick(rnd, ['#ffffff', '#ffd9df', col(p, 4)])}" opacity="${between(rnd, 0.4, 0.9).toFixed(2)}"/>`;
  }
  return s;
}

function reception(r: TImageRecipe, rnd: TRandom, soft: SoftFills): string {
  const { width: w, height: h, palette: p } = r;
  let s = `<linearGradient id="room" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${col(p, 0)}"/><stop offset="0.7" stop-color="${col(p, 1)}"/><stop offset="1" stop-color="${col(p, 0)}"/></linearGradient>`;
  s += `<rect width="${w}" height="${h}" fill="url(#room)"/>`;
  s += bokeh(soft, rnd, w, h, 40, [col(p, 3), col(p, 4), '#ffd79a'], { y0: 0.2, y1: 0.7 });
  // Strings of lights hung across the room.
  for (let k = 0; k < 4; k++) {
    const y0 = h * between(rnd, 0.05, 0.3);
    const y1 = h * between(rnd, 0.05, 0.3);
    const sag = h * between(rnd, 0.08, 0.2);
    s += `<path d="M0 ${f1(y0)} Q${f1(w / 2)} ${f1((y0 + y1) / 2 + sag * 2)} ${w} ${f1(y1)}" stroke="#1a120c" stroke-width="${f1(w * 0.0015)}" fill="none" opacity="0.6"/>`;
    let glows = '';
    let bulbs = '';
    for (let i = 1; i < 24; i++) {
      const t = i / 24;
      const x = w * t;
      const y = (1 - t) * (1 - t) * y0 + 2 * (1 - t) * t * ((y0 + y1) / 2 + sag * 2) + t * t * y1;
      glows += `<circle cx="${f1(x)}" cy="${f1(y + h * 0.01)}" r="${f1(w * 0.016)}" fill="${soft.glow('#ffcf7a')}" opacity="0.6"/>`;
      bulbs += `<circle cx="${f1(x)}" cy="${f1(y + h * 0.01)}" r="${f1(w * 0.003)}" fill="#fff4d8"/>`;
    }
    s += glows + bulbs;
  }
  // Tables with candles.
  let flames = '';
  for (let i = 0; i < 3; i++) {
    const cx = w * (0.2 + i * 0.3 + between(rnd, -0.05, 0.05));
    const cy = h * between(rnd, 0.78, 0.86);
    const rx = w * 0.13;
    s += `<ellipse cx="${f1(cx)}" cy="${f1(cy)}" rx="${f1(rx)}" ry="${f1(rx * 0.22)}" fill="${col(p, 4)}" opacity="0.85"/>`;
    s += `<rect x="${f1(cx - rx)}" y="${f1(cy)}" width="${f1(rx * 2)}" height="${f1(h - cy)}" fill="${mix(col(p, 4), col(p, 1), 0.5)}" opacity="0.8"/>`;
    for (let c = -1; c <= 1; c++) {
      const x = cx + c * rx * 0.4;
      flames += `<circle cx="${f1(x)}" cy="${f1(cy - h * 0.05)}" r="${f1(w * 0.045)}" fill="${soft.glow('#ffb347')}" opacity="0.5"/>`;
      s += `<rect x="${f1(x - w * 0.004)}" y="${f1(cy - h * 0.045)}" width="${f1(w * 0.008)}" height="${f1(h * 0.04)}" fill="#fff1dc"/><ellipse cx="${f1(x)}" cy="${f1(cy - h * 0.052)}" rx="${f1(w * 0.003)}" ry="${f1(h * 0.008)}" fill="#ffe6a8"/>`;
    }
  }
  return s + flames;
}

function details(r: TImageRecipe, rnd: TRandom, soft: SoftFills): string {
  const { width: w, height: h, palette: p } = r;
  let s = `<rect width="${w}" height="${h}" fill="${col(p, 2)}"/>`;
  // Draped fabric: soft diagonal folds.
  let folds = '';
  for (let i = 0; i < 9; i++) {
    const y = between(rnd, -0.2, 1.1) * h;
    const c = i % 2 ? col(p, 3) : col(p, 1);
    folds += `<path d="M${-w * 0.1} ${f1(y)} C${f1(w * 0.3)} ${f1(y - h * between(rnd, 0.1, 0.3))} ${f1(w * 0.6)} ${f1(y + h * between(rnd, 0.1, 0.3))} ${f1(w * 1.1)} ${f1(y - h * 0.1)}" stroke="${c}" stroke-width="${f1(h * between(rnd, 0.05, 0.14))}" fill="none" opacity="0.55"/>`;
  }
  s += blurred('L', folds);
  s += bokeh(soft, rnd, w, h, 14, ['#ffffff', col(p, 4)]);
  // Two rings, one resting on the other.
  const cx = w * between(rnd, 0.4, 0.6);
  const cy = h * between(rnd, 0.45, 0.58);
  const rr = Math.min(w, h) * 0.14;
  s += `<linearGradient id="gold" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fff1c2"/><stop offset="0.35" stop-color="#d9a441"/><stop offset="0.6" stop-color="#8a5a12"/><stop offset="1" stop-color="#f4d58d"/></linearGradient>`;
  s += `<ellipse cx="${f1(cx + rr * 0.2)}" cy="${f1(cy + rr * 1.1)}" rx="${f1(rr * 1.6)}" ry="${f1(rr * 0.35)}" fill="${soft.glow('#000000')}" opacity="0.45"/>`;
  s += `<ellipse cx="${f1(cx - rr * 0.55)}" cy="${f1(cy)}" rx="${f1(rr)}" ry="${f1(rr * 0.92)}" fill="none" stroke="url(#gold)" stroke-width="${f1(rr * 0.16)}"/>`;
  s += `<ellipse cx="${f1(cx + rr * 0.55)}" cy="${f1(cy + rr * 0.1)}" rx="${f1(rr * 0.86)}" ry="${f1(rr * 0.8)}" fill="none" stroke="url(#gold)" stroke-width="${f1(rr * 0.12)}"/>`;
  s += `<circle cx="${f1(cx + rr * 0.55)}" cy="${f1(cy - rr * 0.72)}" r="${f1(rr * 0.14)}" fill="#f8fdff" stroke="#c9d8e6" stroke-width="${f1(rr * 0.03)}"/>`;
  s += `<circle cx="${f1(cx + rr * 0.5)}" cy="${f1(cy - rr * 0.77)}" r="${f1(rr * 0.05)}" fill="#ffffff" filter="url(#blurS)"/>`;
  // A few petals in the foreground, out of focus.
  let petals = '';
  for (let i = 0; i < 6; i++) {
    petals += `<ellipse cx="${f1(between(rnd, 0, w))}" cy="${f1(between(rnd, 0.7, 1) * h)}" rx="${f1(w * 0.05)}" ry="${f1(w * 0.025)}" transform="rotate(${f1(between(rnd, -40, 40))} ${f1(w / 2)} ${f1(h / 2)})" fill="${pick(rnd, ['#ffe3e8', '#ffffff', col(p, 4)])}" opacity="0.6"/>`;
  }
  return s + blurred('M', petals);
}

function venue(r: TImageRecipe, rnd: TRandom, soft: SoftFills): string {
  const { width: w, height: h, palette: p } = r;
  const vx = w * between(rnd, 0.4, 0.6);
  const vy = h * 0.45;
  let s = `<linearGradient id="hall" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${col(p, 1)}"/><stop offset="0.45" stop-color="${col(p, 3)}"/><stop offset="1" stop-color="${col(p, 0)}"/></linearGradient>`;
  s += `<rect width="${w}" height="${h}" fill="url(#hall)"/>`;
  s += `<rect x="${f1(vx - w * 0.08)}" y="${f1(vy - h * 0.18)}" width="${f1(w * 0.16)}" height="${f1(h * 0.26)}" fill="#fff6e4" opacity="0.9" filter="url(#blurS)"/>`;
  s += `<circle cx="${f1(vx)}" cy="${f1(vy)}" r="${f1(w * 0.25)}" fill="${soft.glow(col(p, 4))}" opacity="0.5"/>`;
  // Columns receding to the vanishing point on both sides.
  for (let i = 0; i < 7; i++) {
    const t = 1 - i / 7;
    for (const side of [-1, 1]) {
      const x = vx + side * w * 0.62 * t ** 1.3;
      const cw = w * 0.045 * t;
      const top = vy - h * 0.6 * t;
      const bottom = vy + h * 0.55 * t;
      s += `<rect x="${f1(x - cw / 2)}" y="${f1(top)}" width="${f1(cw)}" height="${f1(bottom - top)}" fill="${mix(col(p, 0), col(p, 2), 1 - t)}" opacity="0.95"/>`;
      s += `<rect x="${f1(x - cw / 2 + (side < 0 ? cw * 0.7 : 0))}" y="${f1(top)}" width="${f1(cw * 0.3)}" height="${f1(bottom - top)}" fill="${col(p, 4)}" opacity="0.25"/>`;
    }
  }
  // Hanging lamps and a polished floor's reflections.
  let glows = '';
  for (let i = 0; i < 6; i++) {
    const t = between(rnd, 0.2, 1);
    const x = vx + between(rnd, -0.4, 0.4) * w * t;
    const y = vy - h * 0.35 * t;
    glows += `<circle cx="${f1(x)}" cy="${f1(y)}" r="${f1(w * 0.045 * t)}" fill="${soft.glow('#ffd58a')}" opacity="0.6"/>`;
    glows += `<ellipse cx="${f1(x)}" cy="${f1(vy + (vy - y) * 0.6 + h * 0.06 * t)}" rx="${f1(w * 0.012)}" ry="${f1(h * 0.08 * t)}" fill="${soft.glow('#ffd58a')}" opacity="0.35"/>`;
    s += `<circle cx="${f1(x)}" cy="${f1(y)}" r="${f1(w * 0.008 * t)}" fill="#fff6e0"/>`;
  }
  return s + glows;
}

function product(r: TImageRecipe, rnd: TRandom, soft: SoftFills): string {
  const { width: w, height: h } = r;
  const finish = r.finish ?? 'black';
  const body = { black: ['#0d0d0f', '#2c2c31', '#5a5a62'], white: ['#c9cbce', '#eef0f2', '#ffffff'], natural: ['#8a623d', '#c4996a', '#e7c9a0'] }[finish];
  const backdrop = { black: ['#cfd2d6', '#f2f3f5'], white: ['#4c5560', '#9aa4ae'], natural: ['#d9d2c5', '#f5efe4'] }[finish];
  const [b0, b1, b2] = body as [string, string, string];
  const close = r.seed % 2 === 1;
  const scale = close ? 1.45 : 1;
  const cx = w * (close ? 0.42 : 0.5);
  const bw = w * 0.26 * scale;
  const bh = h * 0.52 * scale;
  const top = h * (close ? 0.1 : 0.2);
  let s = `<radialGradient id="sweep" cx="0.5" cy="0.35" r="0.85"><stop offset="0" stop-color="${backdrop[1]}"/><stop offset="1" stop-color="${backdrop[0]}"/></radialGradient>`;
  s += `<rect width="${w}" height="${h}" fill="url(#sweep)"/>`;
  s += `<ellipse cx="${f1(cx)}" cy="${f1(top + bh + h * 0.015)}" rx="${f1(bw * 0.75)}" ry="${f1(h * 0.035)}" fill="${soft.glow('#000000')}" opacity="0.7"/>`;
  s += `<linearGradient id="body" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${b0}"/><stop offset="0.25" stop-color="${b2}"/><stop offset="0.45" stop-color="${b1}"/><stop offset="1" stop-color="${b0}"/></linearGradient>`;
  s += `<rect x="${f1(cx - bw / 2)}" y="${f1(top)}" width="${f1(bw)}" height="${f1(bh)}" rx="${f1(bw * 0.22)}" fill="url(#body)"/>`;
  if (finish === 'natural') {
    for (let i = 0; i < 26; i++) {
      const x = cx - bw / 2 + between(rnd, 0.05, 0.95) * bw;
      s += `<path d="M${f1(x)} ${f1(top + bh * 0.04)} C${f1(x + bw * between(rnd, -0.05, 0.05))} ${f1(top + bh * 0.4)} ${f1(x + bw * between(rnd, -0.05, 0.05))} ${f1(top + bh * 0.6)} ${f1(x)} ${f1(top + bh * 0.96)}" stroke="#6b4426" stroke-width="${f1(w * 0.0015)}" fill="none" opacity="${between(rnd, 0.15, 0.4).toFixed(2)}"/>`;
    }
  }
  // Speaker grille, a ring control and a highlight.
  const gy = top + bh * 0.62;
  const gr = bw * 0.3;
  s += `<circle cx="${f1(cx)}" cy="${f1(gy)}" r="${f1(gr)}" fill="${finish === 'white' ? '#d7d9dc' : '#111114'}" opacity="0.85"/>`;
  for (let ring = 1; ring <= 6; ring++)
    s += `<circle cx="${f1(cx)}" cy="${f1(gy)}" r="${f1((gr * ring) / 6.5)}" fill="none" stroke="${finish === 'white' ? '#b6b9bd' : '#2a2a30'}" stroke-width="${f1(gr * 0.05)}"/>`;
  s += `<circle cx="${f1(cx)}" cy="${f1(top + bh * 0.22)}" r="${f1(bw * 0.1)}" fill="none" stroke="${finish === 'white' ? '#9ea3a8' : '#d8b36a'}" stroke-width="${f1(bw * 0.025)}"/>`;
  s += `<rect x="${f1(cx - bw * 0.36)}" y="${f1(top + bh * 0.05)}" width="${f1(bw * 0.07)}" height="${f1(bh * 0.9)}" rx="${f1(bw * 0.035)}" fill="#ffffff" opacity="${finish === 'black' ? 0.18 : 0.35}" filter="url(#blurS)"/>`;
  return s;
}

function abstract(r: TImageRecipe, rnd: TRandom, soft: SoftFills): string {
  const { width: w, height: h, palette: p } = r;
  let s = `<linearGradient id="ground" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${col(p, 0)}"/><stop offset="1" stop-color="${col(p, 1)}"/></linearGradient>`;
  s += `<rect width="${w}" height="${h}" fill="url(#ground)"/>`;
  let clouds = '';
  for (let i = 0; i < 6; i++) {
    clouds += `<circle cx="${f1(between(rnd, 0, w))}" cy="${f1(between(rnd, 0, h))}" r="${f1(between(rnd, 0.25, 0.5) * w)}" fill="${soft.glow(col(p, 2 + (i % 3)))}" opacity="${between(rnd, 0.35, 0.7).toFixed(2)}"/>`;
  }
  s += clouds;
  for (let i = 0; i < 7; i++) {
    const y = between(rnd, 0.1, 0.9) * h;
    const id = `rib${i}`;
    s += `<linearGradient id="${id}" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${col(p, 2 + (i % 3))}" stop-opacity="0"/><stop offset="0.5" stop-color="${col(p, 2 + ((i + 1) % 3))}"/><stop offset="1" stop-color="${col(p, 4)}" stop-opacity="0"/></linearGradient>`;
    s += `<path d="M${-w * 0.1} ${f1(y)} C${f1(w * 0.3)} ${f1(y - h * between(rnd, 0.2, 0.5))} ${f1(w * 0.7)} ${f1(y + h * between(rnd, 0.2, 0.5))} ${f1(w * 1.1)} ${f1(y + h * between(rnd, -0.2, 0.2))}" stroke="url(#${id})" stroke-width="${f1(h * between(rnd, 0.01, 0.06))}" fill="none" opacity="0.8" ${i % 2 ? 'filter="url(#blurS)"' : ''}/>`;
  }
  // A few crisp geometric accents, as a designer's frame would have.
  for (let i = 0; i < 3; i++) {
    const x = between(rnd, 0.1, 0.8) * w;
    const y = between(rnd, 0.1, 0.8) * h;
    const size = between(rnd, 0.05, 0.14) * w;
    s +=
      i % 2
        ? `<circle cx="${f1(x)}" cy="${f1(y)}" r="${f1(size / 2)}" fill="none" stroke="${col(p, 4)}" stroke-width="${f1(w * 0.003)}" opacity="0.7"/>`
        : `<rect x="${f1(x)}" y="${f1(y)}" width="${f1(size)}" height="${f1(size)}" fill="${col(p, 4)}" opacity="0.18" transform="rotate(${f1(between(rnd, 0, 45))} ${f1(x)} ${f1(y)})"/>`;
  }
  return s;
}

function poster(r: TImageRecipe, rnd: TRandom, soft: SoftFills): string {
  const { width: w, height: h, palette: p } = r;
  let s = abstract({ ...r, palette: p }, rnd, soft);
  s += `<rect width="${w}" height="${h}" fill="#000" opacity="0.25"/>`;
  const lines = r.lines ?? [];
  // Without words, the poster's artwork alone (a site's hero sets its own title over it).
  if (lines.length === 0) return s;
  let y = h * 0.62;
  s += `<rect x="${f1(w * 0.08)}" y="${f1(y - w * 0.13)}" width="${f1(w * 0.14)}" height="${f1(h * 0.008)}" fill="${col(p, 4)}"/>`;
  lines.forEach((line, i) => {
    const size = i === 0 ? w * 0.11 : w * 0.045;
    s += `<text x="${f1(w * 0.08)}" y="${f1(y)}" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-weight="${i === 0 ? 700 : 400}" font-size="${f1(size)}" fill="${i === 0 ? '#ffffff' : col(p, 4)}" letter-spacing="${i === 0 ? -2 : 1}">${escapeXml(line)}</text>`;
    y += i === 0 ? size * 1.25 : size * 1.6;
  });
  return s;
}

function screen(r: TImageRecipe, rnd: TRandom, soft: SoftFills): string {
  const { width: w, height: h, palette: p } = r;
  let s = `<linearGradient id="desk" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${col(p, 0)}"/><stop offset="1" stop-color="${col(p, 1)}"/></linearGradient><rect width="${w}" height="${h}" fill="url(#desk)"/>`;
  s += bokeh(soft, rnd, w, h, 12, [col(p, 2), col(p, 3)]);
  const x = w * 0.1;
  const y = h * 0.12;
  const sw = w * 0.8;
  const sh = h * 0.76;
  s += `<rect x="${f1(x + w * 0.01)}" y="${f1(y + h * 0.03)}" width="${f1(sw)}" height="${f1(sh)}" rx="${f1(w * 0.012)}" fill="#000" opacity="0.45" filter="url(#blurM)"/>`;
  s += `<rect x="${f1(x)}" y="${f1(y)}" width="${f1(sw)}" height="${f1(sh)}" rx="${f1(w * 0.012)}" fill="#0f1420"/>`;
  s += `<rect x="${f1(x)}" y="${f1(y)}" width="${f1(sw)}" height="${f1(h * 0.06)}" rx="${f1(w * 0.012)}" fill="#171e2e"/>`;
  ['#ff5f57', '#febc2e', '#28c840'].forEach((c, i) => {
    s += `<circle cx="${f1(x + w * (0.02 + i * 0.018))}" cy="${f1(y + h * 0.03)}" r="${f1(w * 0.006)}" fill="${c}"/>`;
  });
  s += `<rect x="${f1(x)}" y="${f1(y + h * 0.06)}" width="${f1(sw * 0.18)}" height="${f1(sh - h * 0.06)}" fill="#131a28"/>`;
  for (let i = 0; i < 6; i++)
    s += `<rect x="${f1(x + sw * 0.02)}" y="${f1(y + h * (0.1 + i * 0.06))}" width="${f1(sw * between(rnd, 0.08, 0.13))}" height="${f1(h * 0.018)}" rx="${f1(h * 0.009)}" fill="${i === 1 ? col(p, 3) : '#2a3448'}"/>`;
  // Metric cards and a line chart.
  const cx0 = x + sw * 0.21;
  const cw = sw * 0.24;
  for (let i = 0; i < 3; i++) {
    s += `<rect x="${f1(cx0 + i * (cw + sw * 0.02))}" y="${f1(y + h * 0.1)}" width="${f1(cw)}" height="${f1(h * 0.14)}" rx="${f1(w * 0.006)}" fill="#1a2233"/>`;
    s += `<rect x="${f1(cx0 + i * (cw + sw * 0.02) + sw * 0.015)}" y="${f1(y + h * 0.13)}" width="${f1(cw * 0.35)}" height="${f1(h * 0.015)}" fill="#3a465e"/>`;
    s += `<rect x="${f1(cx0 + i * (cw + sw * 0.02) + sw * 0.015)}" y="${f1(y + h * 0.17)}" width="${f1(cw * 0.55)}" height="${f1(h * 0.04)}" rx="${f1(h * 0.005)}" fill="${col(p, 2 + i)}"/>`;
  }
  const chartY = y + h * 0.3;
  const chartH = h * 0.4;
  const chartW = sw * 0.76;
  s += `<rect x="${f1(cx0)}" y="${f1(chartY)}" width="${f1(chartW)}" height="${f1(chartH)}" rx="${f1(w * 0.006)}" fill="#1a2233"/>`;
  let d = '';
  let v = 0.2;
  for (let i = 0; i <= 20; i++) {
    v = Math.min(0.95, Math.max(0.05, v + between(rnd, -0.04, 0.09)));
    const px = cx0 + chartW * 0.04 + (chartW * 0.92 * i) / 20;
    const py = chartY + chartH * (0.92 - v * 0.84);
    d += `${i === 0 ? 'M' : 'L'}${f1(px)} ${f1(py)} `;
  }
  s += `<path d="${d}" stroke="${col(p, 3)}" stroke-width="${f1(w * 0.004)}" fill="none" stroke-linejoin="round"/>`;
  s += `<path d="${d}" stroke="${col(p, 3)}" stroke-width="${f1(w * 0.012)}" fill="none" opacity="0.35" filter="url(#blurS)"/>`;
  const title = r.lines?.[0];
  if (title)
    s += `<text x="${f1(x + sw * 0.21)}" y="${f1(y + h * 0.045)}" font-family="DejaVu Sans, sans-serif" font-size="${f1(h * 0.022)}" fill="#9fb0cc">${escapeXml(title)}</text>`;
  return s;
}

const SCENES: Record<TSceneKind, (r: TImageRecipe, rnd: TRandom, soft: SoftFills) => string> = {
  landscape,
  portrait,
  ceremony,
  reception,
  details,
  venue,
  product,
  abstract,
  poster,
  screen,
};

/**
 * The scene's SVG, before grain, drawn at `scale` of its size: the scenes are soft (depth of field,
 * glows), so they are rasterised at half size, where blurs cost a quarter, and enlarged; the grain
 * added at full size gives back the texture of a photograph.
 */
function sceneSvg(recipe: TImageRecipe, scale: number): string {
  const rnd = seeded(recipe.seed * 7919 + recipe.scene.length);
  const soft = new SoftFills();
  const body = SCENES[recipe.scene](recipe, rnd, soft);
  const { width: w, height: h } = recipe;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(w * scale)}" height="${Math.round(h * scale)}" viewBox="0 0 ${w} ${h}">${defs(w, h)}<defs>${soft.defs}</defs>${body}<rect width="${w}" height="${h}" fill="url(#vignette)"/></svg>`;
}

/**
 * Film grain, added to the pixels directly (a blended overlay cost seconds): seeded monochrome noise,
 * strongest in the mid-tones and faint in deep shadows and highlights, as on film.
 */
function addGrain(pixels: Buffer, channels: number, seed: number): void {
  const rnd = seeded(seed ^ 0x5eed);
  for (let i = 0; i < pixels.length; i += channels) {
    const r = pixels[i] ?? 0;
    const g = pixels[i + 1] ?? 0;
    const b = pixels[i + 2] ?? 0;
    const l = (r * 0.3 + g * 0.59 + b * 0.11) / 255;
    const n = (rnd() + rnd() - 1) * 18 * (0.35 + 2.6 * l * (1 - l));
    pixels[i] = Math.max(0, Math.min(255, r + n));
    pixels[i + 1] = Math.max(0, Math.min(255, g + n));
    pixels[i + 2] = Math.max(0, Math.min(255, b + n));
  }
}

/** Renders the recipe to image bytes (JPEG or WebP). */
export async function renderImage(recipe: TImageRecipe): Promise<Buffer> {
  const drawn = await sharp(Buffer.from(sceneSvg(recipe, 0.5)), { density: 72 })
    .removeAlpha()
    .png({ compressionLevel: 0 })
    .toBuffer();
  const { data, info } = await sharp(drawn).resize(recipe.width, recipe.height, { kernel: 'lanczos3' }).raw().toBuffer({ resolveWithObject: true });
  addGrain(data, info.channels, recipe.seed);
  const image = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  return recipe.format === 'webp' ? image.webp({ quality: 84 }).toBuffer() : image.jpeg({ quality: 84 }).toBuffer();
}
