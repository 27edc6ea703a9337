/**
 * The image gallery island for 2 or more images (spec 2.2): grid (2-6), masonry with a
 * masonry/grid toggle (7-20), lightbox gallery with search, 'Showing: X of Y', 20 at a time,
 * 'Load N More Images' and loading on scroll (more than 20), and the fallback gallery (no image
 * has a preview) with its toggle and a 'Load more' that works. Tiles are server-rendered
 * thumbnails with their sizes (nothing jumps), lazy below the first row; a click opens the
 * Lightbox on the display copy. Before hydration a tile is a plain link to the picture.
 * With `categories` (the images' groups, from the template), chips above the tiles filter
 * them: 'All' and one per category, each a toggle button; the lightbox then steps through the
 * chosen category only.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, type CSSProperties, type MouseEvent } from 'react';
import { FALLBACK_GALLERY_PAGE_SIZE, LIGHTBOX_PAGE_SIZE, formatBytes } from '../../../lib/shared-client.ts';
import type { TViewerSite } from '../../../lib/viewer-types.ts';
import { DownloadAllButton, DownloadButton, LikeButton, ShareButton } from '../shared/controls.tsx';
import { Icon } from '../shared/icons.tsx';
import { Lightbox, type TGalleryImage } from '../shared/Lightbox.tsx';
import { SafeImage } from '../shared/SafeImage.tsx';
import '../shared/viewer.css';
import { MASONRY_COLUMNS, placeMasonry, type TMasonryPlace } from './masonry.ts';
import './gallery.css';

export type TGalleryLayout = 'grid' | 'masonry' | 'lightbox' | 'fallback';

export interface TFallbackCard {
  id: string;
  name: string;
  size: number;
  label: string;
  downloadUrl: string;
}

interface Props {
  site: TViewerSite;
  layout: TGalleryLayout;
  images: TGalleryImage[];
  /** The fallback gallery's cards (images without any preview). */
  cards?: TFallbackCard[];
  totalBytes: number;
  /** The category chips' groups (empty or absent: no chips). Images carry theirs in `group`. */
  categories?: string[];
  /** The first view of a gallery that has the masonry/grid choice (a template may start on masonry). */
  initialView?: 'masonry' | 'grid';
}

export const LIGHTBOX_HINT = 'Use ← → keys to navigate';

/** A masonry tile's place for two and for three columns; gallery.css picks one by the screen's width. */
function masonryStyle(places: TMasonryPlace[][] | null, index: number): CSSProperties | undefined {
  const [two, three] = [places?.[0]?.[index], places?.[1]?.[index]];
  if (!two || !three) return undefined;
  return { '--span': two.span, '--c2': two.column, '--r2': two.row, '--c3': three.column, '--r3': three.row } as CSSProperties;
}

export default function GalleryViewer({ site, layout, images, cards = [], totalBytes, categories = [], initialView }: Props) {
  const [view, setView] = useState<'masonry' | 'grid'>(initialView ?? (layout === 'masonry' ? 'masonry' : 'grid'));
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<string | null>(null);
  const hasChips = categories.length > 0 && layout !== 'fallback';
  const pageSize = layout === 'fallback' ? FALLBACK_GALLERY_PAGE_SIZE : LIGHTBOX_PAGE_SIZE;
  const isPaged = layout === 'lightbox' || layout === 'fallback';
  const [shown, setShown] = useState(pageSize);
  const [open, setOpen] = useState<number | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const sentinelRef = useRef<HTMLDivElement>(null);
  const searchId = useId();

  const filtered = useMemo(() => {
    const q = query.trim().toLowerCase();
    const inCategory = category === null ? images : images.filter((image) => image.group === category);
    return q ? inCategory.filter((image) => image.name.toLowerCase().includes(q)) : inCategory;
  }, [images, query, category]);

  const total = layout === 'fallback' ? cards.length : filtered.length;
  const visibleCount = isPaged ? Math.min(shown, total) : total;
  const remaining = total - visibleCount;
  const count = layout === 'fallback' ? cards.length : images.length;

  const moreButtonRef = useRef<HTMLButtonElement>(null);
  const focusAfterLoad = useRef<number | null>(null);
  const loadMore = useCallback(() => {
    // The button goes away when the last page comes: keep a keyboard visitor's place on the first new item.
    if (moreButtonRef.current && document.activeElement === moreButtonRef.current) focusAfterLoad.current = visibleCount;
    setShown((n) => n + pageSize);
  }, [pageSize, visibleCount]);

  useEffect(() => {
    const index = focusAfterLoad.current;
    if (index === null) return;
    focusAfterLoad.current = null;
    listRef.current?.querySelector<HTMLElement>(`[data-index="${index}"], li:nth-child(${index + 1}) a`)?.focus();
  }, [visibleCount]);

  // Automatic loading on scroll (lightbox gallery): the next page comes as the end of the list nears.
  useEffect(() => {
    if (layout !== 'lightbox' || remaining <= 0 || !sentinelRef.current || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && loadMore(), { rootMargin: '400px 0px' });
    observer.observe(sentinelRef.current);
    return () => observer.disconnect();
  }, [layout, remaining, loadMore, visibleCount]);

  const onTileClick = (event: MouseEvent<HTMLAnchorElement>, index: number) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setOpen(index);
  };

  const close = useCallback(() => {
    setOpen((current) => {
      if (current !== null) {
        // Back to the tile of the picture last shown (it may be further down than the one clicked).
        requestAnimationFrame(() => listRef.current?.querySelector<HTMLElement>(`[data-index="${current}"]`)?.focus());
      }
      return null;
    });
  }, []);

  const step = useCallback(
    (by: number) =>
      setOpen((i) => {
        if (i === null) return i;
        const next = (i + by + filtered.length) % filtered.length;
        // Showing a picture beyond the loaded tiles loads them, so focus can return to its tile.
        if (next >= shown) setShown(Math.ceil((next + 1) / pageSize) * pageSize);
        return next;
      }),
    [filtered.length, shown, pageSize],
  );

  const shownImages = useMemo(() => filtered.slice(0, visibleCount), [filtered, visibleCount]);
  const isMasonry = layout !== 'fallback' && view === 'masonry';
  const masonry = useMemo(() => {
    if (!isMasonry) return null;
    const sizes = shownImages.map((image) => ({ width: image.thumbWidth, height: image.thumbHeight }));
    return MASONRY_COLUMNS.map((columns) => placeMasonry(sizes, columns));
  }, [isMasonry, shownImages]);

  const hasToggle = layout === 'masonry' || layout === 'fallback';
  const listClass = layout === 'fallback' ? `gv-cards gv-cards--${view}` : view === 'masonry' ? 'gv-masonry' : `gv-grid${layout === 'lightbox' ? ' gv-grid--dense' : ''}`;
  const eagerCount = layout === 'lightbox' ? 4 : 3;

  return (
    <div className="gallery-viewer" data-layout={layout} data-view={view}>
      <div className="gv-toolbar vi-bar">
        <div className="gv-toolbar__start vi-cluster">
          <span className="vi-badge ui-badge">{count === 1 ? '1 image' : `${count} images`}</span>
          {layout !== 'fallback' && <span className="gv-toolbar__size vi-count">{formatBytes(totalBytes)}</span>}
        </div>
        <div className="gv-toolbar__end vi-cluster">
          {hasToggle && (
            <div className="vi-segmented" role="group" aria-label="Layout">
              <button type="button" aria-pressed={view === 'masonry'} onClick={() => setView('masonry')}>
                <Icon name="masonry" />
                <span className="vi-button__label">Masonry</span>
              </button>
              <button type="button" aria-pressed={view === 'grid'} onClick={() => setView('grid')}>
                <Icon name="grid" />
                <span className="vi-button__label">Grid</span>
              </button>
            </div>
          )}
          <LikeButton likeKey={`${site.projectId}:gallery`} label="this gallery" />
          <ShareButton title={site.title} />
          <DownloadAllButton site={site} />
        </div>
      </div>

      {layout === 'lightbox' && (
        <div className="gv-search vi-bar">
          <label className="gv-search__field" htmlFor={searchId}>
            <Icon name="search" />
            <span className="visually-hidden">Search images</span>
            <input
              className="vi-input"
              id={searchId}
              type="search"
              placeholder="Search images..."
              value={query}
              autoComplete="off"
              onChange={(event) => {
                setQuery(event.target.value);
                setShown(LIGHTBOX_PAGE_SIZE);
              }}
            />
          </label>
          <p className="gv-search__count" aria-live="polite">
            Showing: {visibleCount} of {total}
          </p>
        </div>
      )}

      {hasChips && (
        <div className="chip-row gv-chips" role="group" aria-label="Filter by category">
          {[null, ...categories].map((name) => (
            <button
              key={name ?? ''}
              type="button"
              className="chip"
              aria-pressed={category === name}
              onClick={() => {
                setCategory(name);
                setShown(pageSize);
              }}
            >
              {name ?? 'All'} <span className="chip__count">{name === null ? images.length : images.filter((image) => image.group === name).length}</span>
            </button>
          ))}
        </div>
      )}

      {layout === 'fallback' ? (
        <ul ref={listRef} className={listClass} role="list">
          {cards.slice(0, visibleCount).map((card, i) => (
            <li key={card.id} className="gv-card" style={view === 'masonry' ? { minHeight: `${9 + ((i * 7) % 5) * 1.5}rem` } : undefined}>
              <span className="gv-card__icon ui-tile">
                <Icon name="image" />
              </span>
              <p className="gv-card__name" title={card.name}>
                {card.name}
              </p>
              <p className="gv-card__meta">
                {card.label} · {formatBytes(card.size)}
              </p>
              <DownloadButton file={card} />
            </li>
          ))}
        </ul>
      ) : total === 0 ? (
        <p className="gv-empty" role="status">
          No images found
        </p>
      ) : (
        <ul ref={listRef} className={listClass} role="list">
          {shownImages.map((image, i) => (
            <li key={image.id} className="gv-item" style={masonryStyle(masonry, i)}>
              <a className="gv-tile" href={image.src} data-index={i} onClick={(event) => onTileClick(event, i)} aria-label={`${image.name}, open image ${i + 1} of ${total}`}>
                <SafeImage src={image.thumb} alt={image.name} width={image.thumbWidth} height={image.thumbHeight} loading={i < eagerCount ? undefined : 'lazy'} decoding="async" />
                <span className="gv-tile__caption" aria-hidden="true">
                  {image.name}
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}

      {isPaged && remaining > 0 && (
        <div className="gv-more">
          <div ref={sentinelRef} className="gv-more__sentinel" aria-hidden="true" />
          <button ref={moreButtonRef} type="button" className="vi-button" onClick={loadMore}>
            {layout === 'fallback' ? 'Load more' : `Load ${Math.min(pageSize, remaining)} More Images`}
          </button>
        </div>
      )}

      {open !== null && layout !== 'fallback' && <Lightbox site={site} items={filtered} index={open} onStep={step} onClose={close} hint={LIGHTBOX_HINT} />}
    </div>
  );
}
