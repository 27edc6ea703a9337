/**
 * The gallery's only island. Its children are the server-rendered thumbnails (static HTML,
 * not hydrated); clicks on an element with `data-lightbox-index` open that image in a modal
 * <dialog>: previous/next buttons, left/right arrow keys, swipe, Escape or the close button to
 * close, an 'N of M' counter, focus kept inside while open and returned to the thumbnail after.
 */
import { useCallback, useEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type MouseEvent, type ReactNode, type TouchEvent } from 'react';

export interface TLightboxItem {
  /** Preview url (the display copy). */
  src: string;
  /** Thumbnail url, shown while the preview loads. */
  thumb: string;
  name: string;
  width: number;
  height: number;
  downloadUrl: string;
}

interface Props {
  items: TLightboxItem[];
  children?: ReactNode;
}

const INDEX_ATTRIBUTE = 'data-lightbox-index';
const SWIPE_MIN_PX = 48;

export default function Lightbox({ items, children }: Props) {
  const [index, setIndex] = useState<number | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const count = items.length;

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const trigger = (event.target as Element).closest?.(`[${INDEX_ATTRIBUTE}]`);
    if (!trigger || !rootRef.current?.contains(trigger)) return;
    const i = Number(trigger.getAttribute(INDEX_ATTRIBUTE));
    if (!Number.isInteger(i) || i < 0 || i >= count) return;
    event.preventDefault();
    setIndex(i);
  };

  const close = useCallback(() => {
    setIndex((current) => {
      if (current !== null) {
        // Back to the thumbnail of the image last shown, once the dialog is gone.
        requestAnimationFrame(() => {
          rootRef.current?.querySelector<HTMLElement>(`[${INDEX_ATTRIBUTE}="${current}"]`)?.focus();
        });
      }
      return null;
    });
  }, []);

  const go = useCallback((step: number) => setIndex((i) => (i === null ? i : (i + step + count) % count)), [count]);

  return (
    <div ref={rootRef} className="lightbox-root" onClick={onClick}>
      {children}
      {index !== null && items[index] && <LightboxDialog items={items} index={index} onStep={go} onClose={close} />}
    </div>
  );
}

interface DialogProps {
  items: TLightboxItem[];
  index: number;
  onStep: (step: number) => void;
  onClose: () => void;
}

function LightboxDialog({ items, index, onStep, onClose }: DialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const touchX = useRef<number | null>(null);
  const item = items[index]!;
  const count = items.length;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);

  // Warm the neighbours so next/previous feel instant.
  useEffect(() => {
    if (count < 2) return;
    for (const step of [1, -1]) {
      const neighbour = items[(index + step + count) % count];
      if (neighbour) new Image().src = neighbour.src;
    }
  }, [index, items, count]);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    switch (event.key) {
      case 'Escape':
        event.preventDefault();
        onClose();
        return;
      case 'ArrowLeft':
        event.preventDefault();
        onStep(-1);
        return;
      case 'ArrowRight':
        event.preventDefault();
        onStep(1);
        return;
      case 'Tab':
        trapFocus(event);
        return;
    }
  };

  const trapFocus = (event: KeyboardEvent<HTMLDialogElement>) => {
    const focusable = Array.from(dialogRef.current?.querySelectorAll<HTMLElement>('button, a[href]') ?? []);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !dialogRef.current?.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !dialogRef.current?.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };

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

  const frameStyle = {
    '--lightbox-w': item.width,
    '--lightbox-h': item.height,
    backgroundImage: item.thumb ? `url(${JSON.stringify(item.thumb)})` : undefined,
  } as CSSProperties;

  return (
    <dialog
      ref={dialogRef}
      className="lightbox"
      aria-label={`${item.name}, image ${index + 1} of ${count}`}
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
          {index + 1} of {count}
        </p>
        <p className="lightbox__name" title={item.name}>
          {item.name}
        </p>
        <div className="lightbox__actions">
          <a className="lightbox__button" href={item.downloadUrl} download={item.name} aria-label={`Download ${item.name}`}>
            <svg viewBox="0 0 24 24" aria-hidden="true">
              <path d="M12 3v12M7 10l5 5 5-5M5 21h14" />
            </svg>
          </a>
          <button type="button" className="lightbox__button" onClick={onClose} aria-label="Close" autoFocus>
            <svg viewBox="0 0 24 24" aria-hidden="true">
              <path d="M6 6l12 12M18 6 6 18" />
            </svg>
          </button>
        </div>
      </div>
      <div className="lightbox__stage" onClick={onStageClick}>
        {count > 1 && (
          <button type="button" className="lightbox__nav lightbox__nav--prev" onClick={() => onStep(-1)} aria-label="Previous image">
            <svg viewBox="0 0 24 24" aria-hidden="true">
              <path d="M15 5l-7 7 7 7" />
            </svg>
          </button>
        )}
        <figure className="lightbox__frame" style={frameStyle}>
          <img key={item.src} src={item.src} alt={item.name} width={item.width} height={item.height} decoding="async" />
        </figure>
        {count > 1 && (
          <button type="button" className="lightbox__nav lightbox__nav--next" onClick={() => onStep(1)} aria-label="Next image">
            <svg viewBox="0 0 24 24" aria-hidden="true">
              <path d="M9 5l7 7-7 7" />
            </svg>
          </button>
        )}
      </div>
    </dialog>
  );
}
