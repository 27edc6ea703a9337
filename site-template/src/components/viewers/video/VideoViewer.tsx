/**
 * The video viewer (spec 2.2, with decisions 6: a real player). A <video> streamed with Range
 * from the API, its poster, and custom controls driving it: play/pause, back/forward 10 s,
 * volume (75 at first), mute, speed 0.5 to 2, a seekable progress bar, full screen. Under it one
 * line of what a visitor cares about (duration, resolution, format, size) from the derived
 * metadata (the player's own figures when there is none) and a Download button. Keys when the
 * player has focus: Space/K, ← → (J/L), ↑ ↓ volume, M mute, F full screen.
 */
import { useEffect, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import type { TMediaSummary } from '@dropsite/shared';
import { VIDEO, formatBytes } from '../../../lib/shared-client.ts';
import type { TServedFile, TViewerSite } from '../../../lib/viewer-types.ts';
import { DownloadButton, FileEngagement } from '../shared/controls.tsx';
import { Icon } from '../shared/icons.tsx';
import { formatClock, formatResolution, videoFormatLabel } from './video-format.ts';
import { countFileView } from '../../engagement/first-call.ts';
import '../shared/viewer.css';
import './video.css';

export interface TVideoFile extends TServedFile {
  posterUrl: string | null;
  media: TMediaSummary | null;
}

interface Props {
  site: TViewerSite;
  file: TVideoFile;
}

export default function VideoViewer({ site, file }: Props) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const playerRef = useRef<HTMLDivElement>(null);
  const [isPlaying, setPlaying] = useState(false);
  const [hasEnded, setEnded] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(file.media?.durationSeconds ?? 0);
  const [buffered, setBuffered] = useState(0);
  const [volume, setVolume] = useState<number>(VIDEO.defaultVolume);
  const [isMuted, setMuted] = useState(false);
  const [speed, setSpeed] = useState(1);
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [error, setError] = useState('');
  const [isWaiting, setWaiting] = useState(false);

  // The element starts at full volume; bring it to the spec's default once.
  useEffect(() => {
    if (videoRef.current) videoRef.current.volume = VIDEO.defaultVolume / 100;
  }, []);

  const video = () => videoRef.current;

  const togglePlay = () => {
    const el = video();
    if (!el) return;
    if (el.paused || el.ended) {
      el.play().catch(() => setError('This video could not be played in your browser. Download it to watch it.'));
    } else el.pause();
  };
  const seekBy = (seconds: number) => {
    const el = video();
    if (!el) return;
    el.currentTime = Math.min(Math.max(0, el.currentTime + seconds), el.duration || duration || el.currentTime + seconds);
  };
  const seekTo = (seconds: number) => {
    const el = video();
    if (el) el.currentTime = seconds;
  };
  const changeVolume = (next: number) => {
    const el = video();
    const value = Math.min(100, Math.max(0, Math.round(next)));
    setVolume(value);
    if (el) {
      el.volume = value / 100;
      el.muted = value === 0;
    }
  };
  const toggleMute = () => {
    const el = video();
    if (el) el.muted = !el.muted;
  };
  const changeSpeed = (next: number) => {
    const el = video();
    setSpeed(next);
    if (el) el.playbackRate = next;
  };
  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void playerRef.current?.requestFullscreen?.();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (event.altKey || event.ctrlKey || event.metaKey || target.closest('input, select')) return;
    const actions: Record<string, () => void> = {
      ' ': togglePlay,
      k: togglePlay,
      ArrowLeft: () => seekBy(-VIDEO.seekSeconds),
      j: () => seekBy(-VIDEO.seekSeconds),
      ArrowRight: () => seekBy(VIDEO.seekSeconds),
      l: () => seekBy(VIDEO.seekSeconds),
      ArrowUp: () => changeVolume(volume + 5),
      ArrowDown: () => changeVolume(volume - 5),
      m: toggleMute,
      f: toggleFullscreen,
    };
    const action = actions[event.key];
    // Space on a button presses the button; only the player surface takes it as play/pause.
    if (!action || (event.key === ' ' && target.closest('button'))) return;
    event.preventDefault();
    action();
  };

  const progress = duration > 0 ? Math.min(100, (time / duration) * 100) : 0;
  const media = file.media ?? {};
  const width = media.width ?? natural?.width;
  const height = media.height ?? natural?.height;
  // What a visitor cares about, in one line: how long, how sharp, what kind, how big.
  const facts = [
    { label: 'Duration', value: duration > 0 ? formatClock(duration) : '' },
    { label: 'Resolution', value: width && height ? formatResolution(width, height) : '' },
    { label: 'Format', value: videoFormatLabel(file.name, media) },
    { label: 'Size', value: formatBytes(file.size) },
  ].filter((fact) => fact.value);

  return (
    <div className="video-viewer">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the player takes the player keys (Space, arrows, k, j, l, m, f) while focus is anywhere inside it */}
      <div ref={playerRef} className="vv-player" data-playing={isPlaying} onKeyDown={onKeyDown}>
        <div className="vv-stage" style={width && height ? { aspectRatio: `${width} / ${height}` } : undefined}>
          {/* biome-ignore lint/a11y/useMediaCaption: uploaded videos come with no caption track to offer */}
          <video
            ref={videoRef}
            className="vv-video"
            src={file.url}
            poster={file.posterUrl ?? undefined}
            preload="metadata"
            playsInline
            tabIndex={-1}
            onClick={togglePlay}
            onPlay={() => {
              // Playing the video is a view of that file (counted once per visitor per window).
              if (site.settings.enableAnalytics) countFileView(site.projectId, file.id);
              setPlaying(true);
              setEnded(false);
              setError('');
            }}
            onPause={() => setPlaying(false)}
            onEnded={() => {
              setPlaying(false);
              setEnded(true);
            }}
            onWaiting={() => setWaiting(true)}
            onPlaying={() => setWaiting(false)}
            onTimeUpdate={(event) => setTime(event.currentTarget.currentTime)}
            onSeeked={(event) => setTime(event.currentTarget.currentTime)}
            onDurationChange={(event) => Number.isFinite(event.currentTarget.duration) && setDuration(event.currentTarget.duration)}
            onLoadedMetadata={(event) => {
              const el = event.currentTarget;
              if (el.videoWidth && el.videoHeight) setNatural({ width: el.videoWidth, height: el.videoHeight });
            }}
            onProgress={(event) => {
              const el = event.currentTarget;
              if (el.buffered.length && el.duration) setBuffered((el.buffered.end(el.buffered.length - 1) / el.duration) * 100);
            }}
            onVolumeChange={(event) => setMuted(event.currentTarget.muted)}
            onRateChange={(event) => setSpeed(event.currentTarget.playbackRate)}
            onError={() => setError('This video could not be played in your browser. Download it to watch it.')}
          />
          {!isPlaying && !error && (
            <button type="button" className="vv-big-play" onClick={togglePlay} aria-label={hasEnded ? `Play ${file.name} again` : `Play ${file.name}`} tabIndex={-1}>
              <Icon name={hasEnded ? 'restart' : 'play'} />
            </button>
          )}
          {isPlaying && isWaiting && <div className="vi-spinner ui-spinner vv-spinner" aria-hidden="true" />}
          {error && (
            <div className="vv-error ui-fill-center" role="alert">
              <Icon name="alert" />
              <p>{error}</p>
            </div>
          )}
        </div>
        <div className="vv-controls" role="group" aria-label="Video controls">
          <input
            className="vv-seek"
            type="range"
            min={0}
            max={duration || 0}
            step={0.1}
            value={Math.min(time, duration || 0)}
            onChange={(event) => seekTo(Number(event.target.value))}
            aria-label="Seek"
            aria-valuetext={`${formatClock(time)} of ${formatClock(duration)}`}
            style={{ '--vv-progress': `${progress}%`, '--vv-buffered': `${buffered}%` } as CSSProperties}
          />
          <div className="vv-controls__row vi-bar">
            <div className="vv-controls__group vi-group">
              <button type="button" className="vv-button ui-icon-button vv-button--play" onClick={togglePlay} aria-label={isPlaying ? 'Pause' : 'Play'}>
                <Icon name={isPlaying ? 'pause' : 'play'} />
              </button>
              <button type="button" className="vv-button ui-icon-button" onClick={() => seekBy(-VIDEO.seekSeconds)} aria-label={`Back ${VIDEO.seekSeconds} seconds`}>
                <Icon name="back10" />
              </button>
              <button type="button" className="vv-button ui-icon-button" onClick={() => seekBy(VIDEO.seekSeconds)} aria-label={`Forward ${VIDEO.seekSeconds} seconds`}>
                <Icon name="forward10" />
              </button>
              <span className="vv-time" aria-hidden="true">
                {formatClock(time)} / {formatClock(duration)}
              </span>
            </div>
            <div className="vv-controls__group vi-group">
              <button type="button" className="vv-button ui-icon-button" onClick={toggleMute} aria-label={isMuted ? 'Unmute' : 'Mute'} aria-pressed={isMuted}>
                <Icon name={isMuted || volume === 0 ? 'mute' : 'volume'} />
              </button>
              <input
                className="vv-volume"
                type="range"
                min={0}
                max={100}
                step={1}
                value={isMuted ? 0 : volume}
                onChange={(event) => changeVolume(Number(event.target.value))}
                aria-label="Volume"
                aria-valuetext={`${isMuted ? 0 : volume}%`}
                style={{ '--vv-progress': `${isMuted ? 0 : volume}%` } as CSSProperties}
              />
              <label className="vv-speed">
                <span className="visually-hidden">Playback speed</span>
                <select value={speed} onChange={(event) => changeSpeed(Number(event.target.value))}>
                  {VIDEO.speeds.map((s) => (
                    <option key={s} value={s}>
                      {s}x
                    </option>
                  ))}
                </select>
              </label>
              <button type="button" className="vv-button ui-icon-button" onClick={toggleFullscreen} aria-label="Full screen">
                <Icon name="fullscreen" />
              </button>
            </div>
          </div>
        </div>
      </div>

      <div className="vv-details">
        <ul className="vv-facts" aria-label="Video details">
          {facts.map((fact) => (
            <li key={fact.label} className="vv-fact">
              <span className="visually-hidden">{fact.label}: </span>
              {fact.value}
            </li>
          ))}
        </ul>
        <DownloadButton file={file} />
      </div>
      <FileEngagement site={site} file={file} variant="full" />
    </div>
  );
}
