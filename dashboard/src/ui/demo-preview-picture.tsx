import { useEffect, useRef, useState } from 'react';
import {
  DEMO_PREVIEW_CONTENT_TYPES,
  DEMO_PREVIEW_FORMATS,
  DEMO_PREVIEW_WIDTHS,
  demoPreviewHeight,
  demoPreviewPath,
  type TDemoPreviewFormat,
  type TDemoPreviewWidth,
} from '@dropsite/shared/templates';

const LARGEST: TDemoPreviewWidth = DEMO_PREVIEW_WIDTHS[DEMO_PREVIEW_WIDTHS.length - 1] ?? 800;

const srcSetOf = (demoPath: string, format: TDemoPreviewFormat) => DEMO_PREVIEW_WIDTHS.map((w) => `${demoPreviewPath(demoPath, w, format)} ${w}w`).join(', ');

interface TDemoPreviewPictureProps {
  /** The demo site whose card picture this is. */
  demoPath: string;
  /** How wide the picture is drawn at each layout, as `<img sizes>` says it. */
  sizes: string;
  alt: string;
  /** Eager for pictures in the first screen; the rest load as they come near. */
  lazy: boolean;
  className?: string;
}

/**
 * A demo site's card picture (its link picture made small when the demo was built): AVIF or WebP
 * where the browser takes them, JPEG otherwise, at the width the layout needs for the screen's
 * density. Its width and height give the box its shape before a byte arrives. One that cannot be
 * loaded (a demo not built yet) is marked `data-missing` where the page runs React, so what its frame
 * shows beneath (the template's name) is seen instead of a broken picture.
 */
export function DemoPreviewPicture({ demoPath, sizes, alt, lazy, className }: TDemoPreviewPictureProps) {
  const img = useRef<HTMLImageElement>(null);
  const [isMissing, setMissing] = useState(false);
  useEffect(() => {
    // It may have failed before the page was hydrated, when no handler listened.
    const el = img.current;
    if (el?.complete && el.naturalWidth === 0 && el.currentSrc) setMissing(true);
  }, []);
  return (
    <picture className={className}>
      {DEMO_PREVIEW_FORMATS.filter((format) => format !== 'jpg').map((format) => (
        <source key={format} type={DEMO_PREVIEW_CONTENT_TYPES[format]} srcSet={srcSetOf(demoPath, format)} sizes={sizes} />
      ))}
      <img
        ref={img}
        data-missing={isMissing ? '' : undefined}
        onError={() => setMissing(true)}
        src={demoPreviewPath(demoPath, LARGEST, 'jpg')}
        srcSet={srcSetOf(demoPath, 'jpg')}
        sizes={sizes}
        width={LARGEST}
        height={demoPreviewHeight(LARGEST)}
        loading={lazy ? 'lazy' : undefined}
        decoding="async"
        alt={alt}
      />
    </picture>
  );
}
