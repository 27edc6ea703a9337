/** Buttons the viewers share: Like (local only, spec 4), Share, Download, Download All with progress. */
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { COPY_CONFIRMATION_MS } from '../../../lib/shared-client.ts';
import type { TViewerSite } from '../../../lib/viewer-types.ts';
import { downloadFile, downloadZip, NOTHING_TO_DOWNLOAD_MESSAGE, pageUrl, shareLink, siteDownloadUrl } from './actions.ts';
import { Icon } from './icons.tsx';

const LIKES_KEY = 'dropsite-likes';

function readLikes(): string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(LIKES_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** Like is local to this browser (spec 4: 'the Like buttons in galleries are local only'), remembered across visits. */
export function LikeButton({ likeKey, label, variant = 'default' }: { likeKey: string; label: string; variant?: 'default' | 'overlay' }) {
  const [isLiked, setLiked] = useState(false);
  useEffect(() => setLiked(readLikes().includes(likeKey)), [likeKey]);
  const toggle = () => {
    const likes = new Set(readLikes());
    if (likes.has(likeKey)) likes.delete(likeKey);
    else likes.add(likeKey);
    try {
      localStorage.setItem(LIKES_KEY, JSON.stringify([...likes].slice(-500)));
    } catch {
      // Storage unavailable: the like still shows for this visit.
    }
    setLiked(likes.has(likeKey));
  };
  return (
    <button type="button" className={`vi-button vi-like${variant === 'overlay' ? ' vi-button--overlay' : ''}`} aria-pressed={isLiked} onClick={toggle} aria-label={`Like ${label}`}>
      <Icon name="heart" />
      <span className="vi-button__label">{isLiked ? 'Liked' : 'Like'}</span>
    </button>
  );
}

/** A transient message for a button ('Link copied'), cleared after the spec's 2 s. */
function useFlash(): [string, (text: string) => void] {
  const [text, setText] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return [
    text,
    (next: string) => {
      clearTimeout(timer.current);
      setText(next);
      timer.current = setTimeout(() => setText(''), COPY_CONFIRMATION_MS);
    },
  ];
}

export function ShareButton({ title, variant = 'default', hash = '' }: { title: string; variant?: 'default' | 'overlay'; hash?: string }) {
  const [flash, setFlash] = useFlash();
  const share = async () => {
    const outcome = await shareLink({ title, url: `${pageUrl()}${hash}` });
    if (outcome === 'copied') setFlash('Link copied');
    else if (outcome === 'failed') setFlash('Copy failed');
  };
  return (
    <button type="button" className={`vi-button${variant === 'overlay' ? ' vi-button--overlay' : ''}`} onClick={share}>
      <Icon name={flash === 'Link copied' ? 'check' : 'share'} />
      <span className="vi-button__label" aria-live="polite">
        {flash || 'Share'}
      </span>
    </button>
  );
}

export function DownloadButton({
  file,
  label = 'Download',
  variant = 'default',
}: {
  file: { name: string; downloadUrl: string };
  label?: string;
  variant?: 'default' | 'overlay' | 'primary';
}) {
  const className = `vi-button${variant === 'overlay' ? ' vi-button--overlay' : variant === 'primary' ? ' vi-button--primary' : ''}`;
  if (!file.downloadUrl) {
    return (
      <button type="button" className={className} onClick={() => downloadFile(file)}>
        <Icon name="download" />
        <span className="vi-button__label">{label}</span>
      </button>
    );
  }
  return (
    <a className={className} href={file.downloadUrl} download={file.name} aria-label={`${label} ${file.name}`}>
      <Icon name="download" />
      <span className="vi-button__label">{label}</span>
    </a>
  );
}

/**
 * 'Download All': one streamed ZIP of every file of the site (decisions 6), with percentage
 * progress. Wherever it is (a gallery, the documents), it is the same archive, under the same
 * name, as the footer's 'Download all files'.
 */
export function DownloadAllButton({ site, label = 'Download All' }: { site: TViewerSite; label?: string }) {
  const [progress, setProgress] = useState<number | null>(null);
  const [flash, setFlash] = useFlash();
  const url = siteDownloadUrl(site.slug);
  const run = async () => {
    if (progress !== null) return;
    setProgress(0);
    const outcome = await downloadZip(url, { expectedBytes: site.totalBytes, fallbackName: `${site.slug}.zip`, onProgress: setProgress });
    setProgress(null);
    if (outcome === 'empty') window.alert(NOTHING_TO_DOWNLOAD_MESSAGE);
    else if (outcome === 'failed') setFlash('Download failed');
    else if (outcome === 'saved') setFlash('Downloaded');
  };
  const isBusy = progress !== null;
  return (
    <button type="button" className="vi-button vi-button--primary vi-download-all" onClick={run} aria-busy={isBusy} aria-disabled={isBusy}>
      <Icon name={flash === 'Downloaded' ? 'check' : 'download'} />
      <span className="vi-button__label" aria-live="polite">
        {isBusy ? `Downloading ${progress}%` : flash || label}
      </span>
      {isBusy && <span className="vi-download-all__bar" style={{ transform: `scaleX(${(progress ?? 0) / 100})` }} aria-hidden="true" />}
    </button>
  );
}

const LazyEngagementControls = lazy(() => import('../../engagement/EngagementControls.tsx').then((m) => ({ default: m.EngagementControls })));

/**
 * The engagement controls for the file in view. Loaded only in the browser and only when the
 * project turned one of them on, so viewers of a site without engagement ship none of its code.
 */
export function FileEngagement({ site, file, variant }: { site: TViewerSite; file: { id: string; name: string }; variant: 'compact' | 'full' }) {
  const [isMounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const { settings } = site;
  if (!isMounted || !(settings.enableFavorites || settings.enableComments || settings.enableApprovals)) return null;
  return (
    <Suspense fallback={null}>
      <LazyEngagementControls projectId={site.projectId} fileId={file.id} fileName={file.name} settings={settings} variant={variant} />
    </Suspense>
  );
}

/** A labelled value in an info panel. */
export function InfoRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="vi-info__row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
