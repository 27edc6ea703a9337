/**
 * An <img> that turns into the spec's placeholder ('Error loading image') when it fails, also
 * when it failed before the island hydrated (then the error event was missed: checked on mount).
 */
import { useEffect, useRef, useState, type ImgHTMLAttributes } from 'react';

export const IMAGE_ERROR_ALT = 'Error loading image';

// A neutral picture-frame glyph on a soft background; a data URL so it needs no request.
const PLACEHOLDER_SRC =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 120 90'%3E%3Crect width='120' height='90' fill='%23e5e7eb'/%3E%3Cg fill='none' stroke='%239ca3af' stroke-width='3' stroke-linecap='round' stroke-linejoin='round'%3E%3Crect x='42' y='30' width='36' height='30' rx='4'/%3E%3Cpath d='M42 54l10-9 8 7 6-5 12 9'/%3E%3C/g%3E%3C/svg%3E";

export function SafeImage(props: ImgHTMLAttributes<HTMLImageElement>) {
  const [hasFailed, setFailed] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const img = ref.current;
    // A lazy image not fetched yet has no currentSrc: only a finished, empty load is a failure.
    if (img?.complete && img.naturalWidth === 0 && img.currentSrc && img.getAttribute('src') !== PLACEHOLDER_SRC) setFailed(true);
  }, []);
  if (hasFailed) {
    const { srcSet: _srcSet, sizes: _sizes, alt: _alt, ...rest } = props;
    return <img {...rest} ref={ref} src={PLACEHOLDER_SRC} alt={IMAGE_ERROR_ALT} data-error="true" />;
  }
  return (
    // biome-ignore lint/a11y/useAltText: the caller's alt comes in with the props
    <img
      {...props}
      ref={ref}
      onError={(event) => {
        setFailed(true);
        props.onError?.(event);
      }}
    />
  );
}
