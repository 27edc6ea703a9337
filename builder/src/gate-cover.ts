/**
 * The cover a password-protected site's gate may show: its first picture made so small (16 px
 * across) that only its colours survive, as a data URI the gate page blurs. Nothing of the
 * picture's content can be read from it.
 */
import { loadSharp } from './sharp.ts';

/** Width of the gate's cover, in pixels: colours only. */
export const GATE_COVER_WIDTH = 16;

export async function renderGateCover(picture: Uint8Array): Promise<string> {
  const sharp = await loadSharp();
  const bytes = await sharp(picture, { limitInputPixels: 4096 * 4096 })
    .rotate()
    .resize({ width: GATE_COVER_WIDTH, height: GATE_COVER_WIDTH, fit: 'inside' })
    .removeAlpha()
    .jpeg({ quality: 60 })
    .toBuffer();
  return `data:image/jpeg;base64,${bytes.toString('base64')}`;
}
