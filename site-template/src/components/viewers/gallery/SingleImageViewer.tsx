/**
 * One image (spec 2.2, single image viewer): the picture large at its own aspect, its title,
 * caption and credit, Like, Share and Download, a details panel (size, format, dimensions)
 * with the engagement controls, and a full-screen overlay on click, closed by Escape, the
 * close button or a click outside the picture.
 */
import { useRef, useState } from 'react';
import { formatBytes } from '../../../lib/shared-client.ts';
import type { TViewerSite } from '../../../lib/viewer-types.ts';
import { DownloadButton, FileEngagement, InfoRow, LikeButton, ShareButton } from '../shared/controls.tsx';
import { Icon } from '../shared/icons.tsx';
import { Lightbox, type TGalleryImage } from '../shared/Lightbox.tsx';
import { SafeImage } from '../shared/SafeImage.tsx';
import '../shared/viewer.css';
import './gallery.css';

interface Props {
  site: TViewerSite;
  image: TGalleryImage;
  /** Width of the display copy, for srcset. */
  displayWidth: number | null;
  title: string;
  caption: string;
  credit: string;
  dimensions: string | null;
}

export default function SingleImageViewer({ site, image, displayWidth, title, caption, credit, dimensions }: Props) {
  const [isOpen, setOpen] = useState(false);
  const trigger = useRef<HTMLAnchorElement>(null);
  const srcSet = displayWidth && displayWidth > image.thumbWidth ? `${image.thumb} ${image.thumbWidth}w, ${image.src} ${displayWidth}w` : undefined;

  const close = () => {
    setOpen(false);
    requestAnimationFrame(() => trigger.current?.focus());
  };

  return (
    <div className="single-viewer vi-layout">
      <figure className="sv-figure">
        <a
          ref={trigger}
          className="sv-image"
          href={image.src}
          onClick={(event) => {
            if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
            event.preventDefault();
            setOpen(true);
          }}
          aria-label={`View ${image.name} full screen`}
        >
          <SafeImage
            src={image.src}
            srcSet={srcSet}
            // The widest the picture can be laid out: the browser sizes it from this, max-width caps it.
            sizes={srcSet ? '(min-width: 1280px) 900px, (min-width: 1024px) calc(100vw - 26rem), 100vw' : undefined}
            alt={image.name}
            width={image.width}
            height={image.height}
            fetchPriority="high"
            decoding="async"
          />
          <span className="sv-image__zoom" aria-hidden="true">
            <Icon name="expand" />
          </span>
        </a>
        <figcaption className="sv-caption">
          <h3 className="sv-caption__title">{title}</h3>
          {caption && <p className="sv-caption__text">{caption}</p>}
          {credit && <p className="sv-caption__credit">{credit}</p>}
        </figcaption>
      </figure>
      <aside className="sv-panel" aria-label="Image details">
        <div className="sv-panel__actions">
          {/* With favourites on, the Favourite button below is the one heart: no second, device-only Like. */}
          {!site.settings.enableFavorites && <LikeButton likeKey={`${site.projectId}:${image.id}`} label={image.name} />}
          <ShareButton title={title} />
          <DownloadButton file={image} variant="primary" />
        </div>
        <dl className="vi-info">
          <InfoRow label="Size">{formatBytes(image.size)}</InfoRow>
          <InfoRow label="Format">{image.format ? image.format.toUpperCase() : '—'}</InfoRow>
          <InfoRow label="Dimensions">{dimensions ?? '—'}</InfoRow>
        </dl>
        <FileEngagement site={site} file={image} variant="full" />
      </aside>
      {isOpen && <Lightbox site={site} items={[image]} index={0} onStep={() => {}} onClose={close} />}
    </div>
  );
}
