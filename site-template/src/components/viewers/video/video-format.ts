/** Figures the video viewer shows: clock times, resolutions, container and codecs. */
import type { TMediaSummary } from '@dropsite/shared';

/** 75 → '1:15', 3725 → '1:02:05'. */
export function formatClock(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) seconds = 0;
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** '1920 × 1080 (1080p)'. */
export function formatResolution(width: number, height: number): string {
  const short = Math.min(width, height);
  const label = short >= 2160 ? '4K' : short >= 1440 ? '1440p' : short >= 1080 ? '1080p' : short >= 720 ? '720p' : short >= 480 ? '480p' : `${short}p`;
  return `${width} × ${height} (${label})`;
}

const CODECS: Record<string, string> = { h264: 'H.264', hevc: 'H.265', h265: 'H.265', vp8: 'VP8', vp9: 'VP9', av1: 'AV1', aac: 'AAC', mp3: 'MP3', opus: 'Opus', vorbis: 'Vorbis' };

/** 'MP4 · H.264 / AAC': the container (else the extension) and the codecs when known. */
export function videoFormatLabel(name: string, media: TMediaSummary): string {
  const ext = /\.([a-z0-9]{1,5})$/i.exec(name)?.[1]?.toUpperCase() ?? '';
  const container = ext || (media.container?.split(',')[0]?.toUpperCase() ?? '');
  const codecs = [media.videoCodec, media.audioCodec].filter((c): c is string => Boolean(c)).map((c) => CODECS[c.toLowerCase()] ?? c.toUpperCase());
  return [container || 'Video', codecs.join(' / ')].filter(Boolean).join(' · ');
}
