/**
 * The full-screen image viewer shared by the galleries and the single image viewer: a modal
 * <dialog> (the rest of the page inert) with previous/next buttons, left/right arrow keys,
 * swipe, Escape, the close button or a click outside the picture to close, an 'N of M'
 * counter, focus kept inside while open. The parent returns focus to the opener on close.
 * Shows the display copy (never the original) over its thumbnail, at the image's aspect, on an
 * opaque dark ground. With engagement on, the picture's details and its feedback controls sit in
 * a panel beside the photo on a wide screen (comments open in that panel, never over the
 * picture) and under it on a phone (comments open as a sheet). Each picture
 * it shows counts as a view of that file when the site's analytics are on.
 */
import { useEffect, useRef, type CSSProperties, type KeyboardEvent, type MouseEvent, type TouchEvent } from 'react';
import { formatBytes } from '../../../lib/shared-client.ts';
import type { TViewerSite } from '../../../lib/viewer-types.ts';
import { DownloadButton, FileEngagement, LikeButton } from './controls.tsx';
import { Icon } from './icons.tsx';
import { SafeImage } from './SafeImage.tsx';
import { countFileView } from '../../engagement/first-call.ts';

export interface TGalleryImage {
  id: string;
  name: string;
  /** Display copy. */
  src: string;
  thumb: string;
  thumbWidth: number;
  thumbHeight: number;
  width: number;
  height: number;
  size: number;
  format: string | null;
  downloadUrl: string;
  /** The folder the creator dropped it in, for a gallery's category chips. */
  group?: string | null;
}

interface Props {
  site: TViewerSite;
  items: TGalleryImage[];
  index: number;
  onStep: (step: number) => void;
  onClose: () => void;
  /** Spec 2.2, lightbox gallery: 'Use ← → keys to navigate'. */
  hint?: string;
}

const SWIPE_MIN_PX = 48;

export function Lightbox({ site, items, index, onStep, onClose, hint }: Props) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const touchX = useRef<number | null>(null);
  const item = items[index];
  const count = items.length;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);

  // Each picture shown counts as a view of that file (when the creator turned analytics on).
  const shownId = item?.id;
  const { projectId } = site;
  const countsViews = site.settings.enableAnalytics;
  useEffect(() => {
    if (countsViews && shownId) countFileView(projectId, shownId);
  }, [countsViews, projectId, shownId]);

  // Warm the neighbours so next/previous feel instant.
  useEffect(() => {
    if (count < 2) return;
    for (const step of [1, -1]) {
      const neighbour = items[(index + step + count) % count];
      if (neighbour) new Image().src = neighbour.src;
    }
  }, [index, items, count]);

  if (!item) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, select, [contenteditable="true"]')) return;
    switch (event.key) {
      case 'Escape':
        event.preventDefault();
        onClose();
        return;
      case 'ArrowLeft':
        if (count < 2) return;
        event.preventDefault();
        onStep(-1);
        return;
      case 'ArrowRight':
        if (count < 2) return;
        event.preventDefault();
        onStep(1);
        return;
      case 'Tab':
        trapFocus(event);
        return;
    }
  };

  const trapFocus = (event: KeyboardEvent<HTMLDialogElement>) => {
    const dialog = dialogRef.current;
    const focusable = Array.from(dialog?.querySelectorAll<HTMLElement>('button:not([disabled]), a[href], input, textarea, select, [tabindex="0"]') ?? []).filter(
      (el) => el.offsetParent !== null,
    );
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !dialog?.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !dialog?.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };

  // A click on the dark area around the picture (not on the picture or a control) closes.
  const onStageClick = (event: MouseEvent<HTMLDivElement>) => {
    if (event.target === event.currentTarget) onClose();
  };

  const onTouchStart = (event: TouchEvent) => {
    touchX.current = event.touches[0]?.clientX ?? null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touchX.current;
    const end = event.changedTouches[0]?.clientX;
    touchX.current = null;
    if (start === null || end === undefined || count < 2) return;
    if (Math.abs(end - start) >= SWIPE_MIN_PX) onStep(end < start ? 1 : -1);
  };

  const { settings } = site;
  const hasEngagement = settings.enableFavorites || settings.enableComments || settings.enableApprovals;
  const details = [item.width > 1 && item.height > 1 ? `${item.width} × ${item.height}` : '', item.format?.toUpperCase() ?? '', formatBytes(item.size)].filter(Boolean).join(' · ');

  const frameStyle = {
    '--lightbox-w': item.width,
    '--lightbox-h': item.height,
    backgroundImage: item.thumb ? `url(${JSON.stringify(item.thumb)})` : undefined,
  } as CSSProperties;

  return (
    <dialog
      ref={dialogRef}
      className="lightbox"
      data-side={hasEngagement || undefined}
      aria-label={count > 1 ? `${item.name}, image ${index + 1} of ${count}` : item.name}
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onTouchStart={onTouchStart}
      onTouchEnd={onTouchEnd}
    >
      <div className="lightbox__bar">
        <p className="lightbox__counter" aria-live="polite">
          {count > 1 ? `${index + 1} of ${count}` : ''}
        </p>
        <p className="lightbox__name" title={item.name}>
          {item.name}
        </p>
        <div className="lightbox__actions">
          {/* With favourites on, the favourite below is the heart that counts; a local Like beside it would be a second one. */}
          {!site.settings.enableFavorites && <LikeButton likeKey={`${site.projectId}:${item.id}`} label={item.name} variant="overlay" />}
          <DownloadButton file={item} variant="overlay" />
          <button type="button" className="vi-button vi-button--overlay vi-button--icon" onClick={onClose} aria-label="Close" autoFocus>
            <Icon name="close" />
          </button>
        </div>
      </div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: a click beside the image closes the lightbox; Escape does the same from the keyboard */}
      <div className="lightbox__stage" onClick={onStageClick}>
        {count > 1 && (
          <button type="button" className="lightbox__nav ui-icon-button lightbox__nav--prev" onClick={() => onStep(-1)} aria-label="Previous image">
            <Icon name="prev" />
          </button>
        )}
        <figure className="lightbox__frame" style={frameStyle}>
          <SafeImage key={item.src} src={item.src} alt={item.name} width={item.width} height={item.height} decoding="async" />
        </figure>
        {count > 1 && (
          <button type="button" className="lightbox__nav ui-icon-button lightbox__nav--next" onClick={() => onStep(1)} aria-label="Next image">
            <Icon name="next" />
          </button>
        )}
      </div>
      {hint && count > 1 && (
        <div className="lightbox__footer">
          <p className="lightbox__hint">{hint}</p>
        </div>
      )}
      {hasEngagement && (
        // Beside the photo on a wide screen, under it on a phone: the comments never cover the picture.
        <section className="lightbox__side" aria-label={`About ${item.name}`}>
          <div className="lightbox__about">
            <p className="lightbox__about-name">{item.name}</p>
            <p className="lightbox__about-meta">{details}</p>
          </div>
          <FileEngagement site={site} file={item} variant="compact" />
        </section>
      )}
    </dialog>
  );
}
