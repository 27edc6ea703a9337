/**
 * Video and audio: ffprobe for duration, resolution, bitrate, container and codecs; for video
 * also a poster frame at 10 % of the duration (1 s when unknown) made by ffmpeg, kept as a WebP
 * display copy (at most 1600 px, derived/{sha}/display.webp) and a 300 px thumbnail.
 * The tools read the original through a loopback URL with byte ranges (storage-http.ts), never
 * through a shell, each under a time limit. Without ffmpeg a video still plays as it is: the
 * site only lacks its poster and details.
 */
import { loadSharp } from './sharp.ts';
import { DISPLAY_IMAGE_SIZE, derivedKeys, getExtension, THUMBNAIL_SIZE, type TDerivedMetadata, type TMediaSummary } from '@dropsite/shared';
import { PreviewUnavailableError } from './derive-cache.ts';
import { DERIVED_CONTENT_TYPE, IMMUTABLE_CACHE_CONTROL } from './derive-image.ts';
import { runProcess, ToolMissingError, ToolTimeoutError } from './run-process.ts';
import { serveObjectOnLoopback } from './storage-http.ts';
import type { BuilderStorage, TBuildFile } from './types.ts';

export interface TDeriveMediaOptions {
  ffprobePath?: string;
  ffmpegPath?: string;
  /** Default 30 s. */
  probeTimeoutMs?: number;
  /** Default 60 s. */
  posterTimeoutMs?: number;
}

export const NO_FFMPEG = 'Preview not available: FFmpeg is not installed on this server.';

const MEDIA_DEFAULTS = { ffprobePath: 'ffprobe', ffmpegPath: 'ffmpeg', probeTimeoutMs: 30_000, posterTimeoutMs: 60_000 } as const;

/**
 * The tools read only our loopback URL, through container formats that hold their own media:
 * playlist and concat formats (HLS, DASH, ffconcat) would make FFmpeg fetch other URLs or
 * local files named inside an upload.
 */
const INPUT_GUARDS = ['-protocol_whitelist', 'http,tcp', '-format_whitelist', 'mov,matroska,webm,avi,ogg,mpeg,mpegts,flv,asf,wav,mp3,aac,flac'];

/** The part of ffprobe's JSON the builder reads; anything else in it is ignored. */
interface TProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  sample_aspect_ratio?: string;
  duration?: string;
  rotation?: number;
  attachedPicture: boolean;
}
interface TProbe {
  streams: TProbeStream[];
  format: { format_name?: string; duration?: string; bit_rate?: string };
}

const CODEC_NAMES: Record<string, string> = {
  h264: 'H.264',
  hevc: 'H.265 (HEVC)',
  vp8: 'VP8',
  vp9: 'VP9',
  av1: 'AV1',
  mpeg4: 'MPEG-4',
  mpeg2video: 'MPEG-2',
  prores: 'ProRes',
  theora: 'Theora',
  aac: 'AAC',
  mp3: 'MP3',
  opus: 'Opus',
  vorbis: 'Vorbis',
  flac: 'FLAC',
  ac3: 'AC-3',
  eac3: 'E-AC-3',
  alac: 'ALAC',
};
const CONTAINER_ALIASES: Record<string, string> = { matroska: 'mkv', mov: 'mov', mp3: 'mp3', ogg: 'ogg', wav: 'wav', flac: 'flac' };

type TMediaFile = Pick<TBuildFile, 'storageKey' | 'sha256' | 'size' | 'name'>;

export function deriveVideo(storage: BuilderStorage, file: TMediaFile, options: TDeriveMediaOptions = {}): Promise<TDerivedMetadata> {
  return probeServedFile(storage, file, options, async (url, { media, video }) => {
    const metadata: TDerivedMetadata = {
      sha256: file.sha256,
      kind: 'video',
      media,
      ...(media.container ? { format: media.container } : {}),
      ...(media.width && media.height ? { width: media.width, height: media.height } : {}),
    };
    if (!video) return metadata; // audio only: plays, no poster to make
    const at = media.durationSeconds ? media.durationSeconds * 0.1 : 1;
    let frame = await grabFrame(url, at, video, options);
    if (frame.length === 0 && at > 0) frame = await grabFrame(url, 0, video, options); // seeked past the last frame
    if (frame.length === 0) return metadata;
    return { ...metadata, ...(await storePoster(storage, file.sha256, frame)) };
  });
}

export function deriveAudio(storage: BuilderStorage, file: TMediaFile, options: TDeriveMediaOptions = {}): Promise<TDerivedMetadata> {
  return probeServedFile(storage, file, options, async (_url, { media }) => ({
    sha256: file.sha256,
    kind: 'audio',
    media,
    ...(media.container ? { format: media.container } : {}),
  }));
}

/** Serves the stored file on loopback, probes it, and hands the summary to `use` (with the URL, for more reads) before the server closes. */
async function probeServedFile<T>(
  storage: BuilderStorage,
  file: TMediaFile,
  options: TDeriveMediaOptions,
  use: (url: string, summary: ReturnType<typeof summarise>) => Promise<T>,
): Promise<T> {
  const served = await serveObjectOnLoopback(storage, file.storageKey, file.size);
  try {
    return await use(served.url, summarise(await probeMedia(served.url, options), getExtension(file.name)));
  } finally {
    await served.close();
  }
}

async function probeMedia(url: string, options: TDeriveMediaOptions): Promise<TProbe> {
  const args = ['-v', 'error', ...INPUT_GUARDS, '-print_format', 'json', '-show_format', '-show_streams', url];
  const result = await runTool(options.ffprobePath ?? MEDIA_DEFAULTS.ffprobePath, args, options.probeTimeoutMs ?? MEDIA_DEFAULTS.probeTimeoutMs);
  if (result.code !== 0) {
    const invalid = /Invalid data found|could not find codec parameters|moov atom not found|not on whitelist/i.test(result.stderr);
    throw new PreviewUnavailableError('Preview not available: this file could not be read as audio or video.', {
      final: invalid,
      cause: new Error(`ffprobe exited ${result.code}: ${result.stderr.trim().split('\n').at(-1) ?? ''}`),
    });
  }
  try {
    return parseProbe(JSON.parse(result.stdout.toString('utf8')));
  } catch (error) {
    throw new PreviewUnavailableError('Preview not available: this file could not be read as audio or video.', { final: false, cause: error });
  }
}

/** Reads ffprobe's JSON defensively: wrong types are treated as absent. */
function parseProbe(json: unknown): TProbe {
  const root = asRecord(json);
  const format = asRecord(root.format);
  const streams = Array.isArray(root.streams) ? root.streams.map(asRecord) : [];
  return {
    format: { format_name: asString(format.format_name), duration: asString(format.duration), bit_rate: asString(format.bit_rate) },
    streams: streams.map((s) => {
      const tags = asRecord(s.tags);
      const sideData = Array.isArray(s.side_data_list) ? s.side_data_list.map(asRecord) : [];
      const rotation = sideData.map((d) => asNumber(d.rotation)).find((r) => r !== undefined) ?? asNumber(Number(asString(tags.rotate)));
      return {
        codec_type: asString(s.codec_type),
        codec_name: asString(s.codec_name),
        width: asNumber(s.width),
        height: asNumber(s.height),
        sample_aspect_ratio: asString(s.sample_aspect_ratio),
        duration: asString(s.duration),
        rotation,
        attachedPicture: asRecord(s.disposition).attached_pic === 1,
      };
    }),
  };
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function summarise(probe: TProbe, ext: string): { media: TMediaSummary; video: TProbeStream | undefined } {
  const video = probe.streams.find((s) => s.codec_type === 'video' && !s.attachedPicture);
  const audio = probe.streams.find((s) => s.codec_type === 'audio');
  const duration = positive(probe.format?.duration) ?? positive(video?.duration) ?? positive(audio?.duration);
  const bitrate = positive(probe.format?.bit_rate);
  const media: TMediaSummary = {};
  if (duration !== undefined) media.durationSeconds = Math.round(duration * 1000) / 1000;
  if (bitrate !== undefined) media.bitrate = Math.round(bitrate);
  if (video?.width && video.height && video.width > 0 && video.height > 0) {
    const [width, height] = displaySize(video);
    media.width = width;
    media.height = height;
  }
  const names = (probe.format?.format_name ?? '').split(',').filter(Boolean);
  if (names.length > 0) media.container = names.includes(ext) ? ext : (CONTAINER_ALIASES[names[0]!] ?? names[0]!);
  if (video?.codec_name) media.videoCodec = CODEC_NAMES[video.codec_name] ?? video.codec_name.toUpperCase();
  if (audio?.codec_name) media.audioCodec = CODEC_NAMES[audio.codec_name] ?? audio.codec_name.toUpperCase();
  return { media, video };
}

/** The size a player shows: non-square pixels stretched, and turned for rotated phone footage. */
function displaySize(video: TProbeStream): [number, number] {
  let width = video.width!;
  const height = video.height!;
  const sar = parseRatio(video.sample_aspect_ratio);
  if (sar && sar !== 1) width = Math.max(1, Math.round(width * sar));
  return Math.abs(Math.round(video.rotation ?? 0)) % 180 === 90 ? [height, width] : [width, height];
}

async function grabFrame(url: string, atSeconds: number, video: TProbeStream, options: TDeriveMediaOptions): Promise<Buffer> {
  const sar = parseRatio(video.sample_aspect_ratio);
  // Numbers only go into the filter: square the pixels, then fit the display size.
  const filters = [
    ...(sar && sar !== 1 ? [`scale=trunc(iw*${sar.toFixed(6)}/2)*2:ih`, 'setsar=1'] : []),
    `scale=w='min(iw,${DISPLAY_IMAGE_SIZE})':h='min(ih,${DISPLAY_IMAGE_SIZE})':force_original_aspect_ratio=decrease`,
  ];
  const args = [
    '-v',
    'error',
    '-nostdin',
    '-ss',
    atSeconds.toFixed(3),
    ...INPUT_GUARDS,
    '-i',
    url,
    '-map',
    '0:v:0',
    '-frames:v',
    '1',
    '-an',
    '-sn',
    '-dn',
    '-vf',
    filters.join(','),
    '-f',
    'image2pipe',
    '-c:v',
    'png',
    'pipe:1',
  ];
  const result = await runTool(options.ffmpegPath ?? MEDIA_DEFAULTS.ffmpegPath, args, options.posterTimeoutMs ?? MEDIA_DEFAULTS.posterTimeoutMs);
  return result.code === 0 ? result.stdout : Buffer.alloc(0);
}

async function storePoster(storage: BuilderStorage, sha256: string, frame: Buffer): Promise<Pick<TDerivedMetadata, 'display' | 'thumbnail'>> {
  const keys = derivedKeys(sha256);
  const sharp = await loadSharp();
  const source = sharp(frame, { failOn: 'error' });
  const [display, thumbnail] = await Promise.all([
    source
      .clone()
      .resize({ width: DISPLAY_IMAGE_SIZE, height: DISPLAY_IMAGE_SIZE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82, effort: 2 })
      .toBuffer({ resolveWithObject: true }),
    source.clone().resize({ width: THUMBNAIL_SIZE, withoutEnlargement: true }).webp({ quality: 78, effort: 2 }).toBuffer({ resolveWithObject: true }),
  ]);
  const put = { contentType: DERIVED_CONTENT_TYPE, cacheControl: IMMUTABLE_CACHE_CONTROL };
  await storage.put(keys.thumbnail, thumbnail.data, put);
  await storage.put(keys.display, display.data, put);
  return {
    thumbnail: { key: keys.thumbnail, width: thumbnail.info.width, height: thumbnail.info.height, contentType: DERIVED_CONTENT_TYPE },
    display: { key: keys.display, width: display.info.width, height: display.info.height, contentType: DERIVED_CONTENT_TYPE },
  };
}

async function runTool(command: string, args: string[], timeoutMs: number) {
  try {
    return await runProcess(command, args, { timeoutMs, maxStdoutBytes: 128 * 1024 * 1024 });
  } catch (error) {
    if (error instanceof ToolMissingError) throw new PreviewUnavailableError(NO_FFMPEG, { final: false, cause: error });
    if (error instanceof ToolTimeoutError) {
      throw new PreviewUnavailableError('Preview not available: reading this video took too long.', { final: false, cause: error });
    }
    throw error;
  }
}

function positive(text: string | undefined): number | undefined {
  const value = Number(text);
  return text !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}

function parseRatio(text: string | undefined): number | undefined {
  const match = /^(\d+):(\d+)$/.exec(text ?? '');
  if (!match) return undefined;
  const a = Number(match[1]);
  const b = Number(match[2]);
  return a > 0 && b > 0 ? a / b : undefined;
}
