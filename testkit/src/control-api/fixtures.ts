/** Small real files for API tests, and the regular publish call as a browser sends it. */
import sharp from 'sharp';

export async function makeJpeg(width: number, height: number, seed = 0): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: (seed * 70) % 255, g: 120, b: 200 - seed * 30 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

export interface TUploadPart {
  name: string;
  type: string;
  bytes: Uint8Array;
}

export function buildUploadForm(files: TUploadPart[], fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  const all: Record<string, string> = {
    title: 'Autumn Wedding',
    description: 'Selected photographs',
    template: 'universal',
    authorName: 'Mara Lind',
    settings: JSON.stringify({ enableAnalytics: true }),
    filesMetadata: JSON.stringify(files.map((f) => ({ name: f.name, type: f.type, size: f.bytes.byteLength }))),
    ...fields,
  };
  for (const [k, v] of Object.entries(all)) form.append(k, v);
  for (const f of files) form.append('files', new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  return form;
}

export async function postUpload(baseUrl: string, form: FormData, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}/api/upload`, { method: 'POST', body: form, headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
