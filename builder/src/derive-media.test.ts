import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { deriveFile, type TDeriveFileOptions } from './derive-file.ts';
import { derivedKeys } from '@dropsite/shared';
import { NO_FFMPEG } from './derive-media.ts';
import { createPdfRenderer } from './pdf-renderer.ts';
import { MemoryStorage } from '@dropsite/testkit/builder/memory-storage';
import { addFile } from '@dropsite/testkit/builder/fixtures';
import { hasTool, makeAudio, makeVideo, requireTool } from '@dropsite/testkit/builder/media-fixtures';

const haveFfmpeg = requireTool('FFmpeg', hasTool('ffmpeg') && hasTool('ffprobe'));
const renderer = createPdfRenderer();
const options: TDeriveFileOptions = { pdfRenderer: renderer };
afterAll(() => renderer.close());

describe.runIf(haveFfmpeg)('video and audio derivation', () => {
  let video: Buffer;
  beforeAll(() => {
    video = makeVideo(2);
  });

  it('reads duration, resolution, bitrate, container and codecs, and makes a poster and a thumbnail', async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'clip.mp4', video);
    const outcome = await deriveFile(storage, file, 'video', options);

    expect(outcome.metadata.error).toBeUndefined();
    const { media } = outcome.metadata;
    expect(media?.durationSeconds).toBeCloseTo(2, 1);
    expect(media).toMatchObject({ width: 640, height: 360, container: 'mp4', videoCodec: 'H.264', audioCodec: 'AAC' });
    expect(media?.bitrate).toBeGreaterThan(10_000);
    expect(outcome.metadata).toMatchObject({ kind: 'video', format: 'mp4', width: 640, height: 360 });

    const keys = derivedKeys(file.sha256);
    expect(outcome.metadata.display).toEqual({ key: keys.display, width: 640, height: 360, contentType: 'image/webp' });
    expect(outcome.metadata.thumbnail).toEqual({ key: keys.thumbnail, width: 300, height: 169, contentType: 'image/webp' });
    const poster = await sharp(storage.objects.get(keys.display)!.body).stats();
    // testsrc is colourful: a real frame, not a black or blank picture.
    expect(poster.channels.slice(0, 3).every((c) => c.stdev > 30)).toBe(true);
    expect((await sharp(storage.objects.get(keys.thumbnail)!.body).metadata()).format).toBe('webp');

    // The second build answers from the cache.
    expect((await deriveFile(storage, file, 'video', options)).derived).toBe(false);
  });

  it('reads the video through byte ranges, not a full copy', async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'clip.mp4', video);
    const ranges: Array<{ start: number; end: number } | undefined> = [];
    const get = storage.get.bind(storage);
    storage.get = (key, range) => {
      if (key === file.storageKey) ranges.push(range);
      return get(key, range);
    };
    await deriveFile(storage, file, 'video', options);
    expect(ranges.length).toBeGreaterThan(0);
  });

  it('reads audio details without a poster', async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'tone.m4a', makeAudio(1.5));
    const outcome = await deriveFile(storage, file, 'audio', options);
    expect(outcome.metadata.error).toBeUndefined();
    expect(outcome.metadata.media?.durationSeconds).toBeCloseTo(1.5, 1);
    expect(outcome.metadata.media).toMatchObject({ audioCodec: 'AAC' });
    expect(outcome.metadata.media?.videoCodec).toBeUndefined();
    expect(outcome.metadata.display).toBeUndefined();
  });

  it('without FFmpeg says so, and tries again next time (nothing cached)', async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'clip.mp4', video);
    const missing = { ...options, media: { ffprobePath: '/nonexistent/ffprobe', ffmpegPath: '/nonexistent/ffmpeg' } };
    const outcome = await deriveFile(storage, file, 'video', missing);
    expect(outcome.metadata).toEqual({ sha256: file.sha256, kind: 'video', error: NO_FFMPEG });
    expect(NO_FFMPEG).toBe('Preview not available: FFmpeg is not installed on this server.');
    expect(await storage.head(derivedKeys(file.sha256).meta)).toBeNull();
    expect((await deriveFile(storage, file, 'video', options)).metadata.media?.width).toBe(640);
  });

  it('never lets an upload make FFmpeg fetch other URLs or local files (playlists named .mp4)', async () => {
    let hits = 0;
    const server = http.createServer((_req, res) => {
      hits++;
      res.end('x');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as AddressInfo;
    try {
      const storage = new MemoryStorage();
      for (const target of [`http://127.0.0.1:${port}/segment.ts`, 'file:///etc/passwd']) {
        const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n${target}\n#EXT-X-ENDLIST\n`;
        const file = await addFile(storage, 'trap.mp4', Buffer.from(playlist));
        const outcome = await deriveFile(storage, file, 'video', options);
        expect(outcome.metadata.error).toBe('Preview not available: this file could not be read as audio or video.');
      }
      expect(hits).toBe(0);
    } finally {
      server.close();
    }
  });

  it('degrades bytes that are not a video to a reason', async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'broken.mp4', Buffer.from('this is not a video, just some text pretending'.repeat(50)));
    const outcome = await deriveFile(storage, file, 'video', options);
    expect(outcome.metadata.error).toBe('Preview not available: this file could not be read as audio or video.');
  });
});
