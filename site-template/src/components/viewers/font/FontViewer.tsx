/**
 * The font viewer: a specimen of a font file (TTF, OTF, WOFF, WOFF2) drawn in the font itself,
 * loaded from the file's own url with the FontFace API. The visitor types their own sample and
 * sizes it; the alphabet and figures show every common glyph. Download and the file's engagement
 * are at the foot, as in the other viewers.
 */
import { useEffect, useId, useState } from 'react';
import type { TServedFile, TViewerSite } from '../../../lib/viewer-types.ts';
import { DownloadButton, FileEngagement } from '../shared/controls.tsx';
import { Icon } from '../shared/icons.tsx';
import '../shared/viewer.css';
import './font.css';

interface Props {
  site: TViewerSite;
  file: TServedFile;
}

const FONT_SAMPLE = 'The quick brown fox jumps over the lazy dog';
const GLYPH_LINES = ['ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz', '0123456789 & ! ? @ # % ( ) , . ;'];
const FONT_SIZES = { min: 12, max: 96, step: 4, initial: 36 } as const;

type TLoad = 'loading' | 'ready' | 'error';

/** A family name for the file alone, so two fonts of a site never replace each other. */
function familyOf(fileId: string): string {
  return `dropsite-font-${fileId.replace(/[^\w-]/g, '')}`;
}

export default function FontViewer({ site, file }: Props) {
  const family = familyOf(file.id);
  const [load, setLoad] = useState<TLoad>('loading');
  const [sample, setSample] = useState(FONT_SAMPLE);
  const [size, setSize] = useState<number>(FONT_SIZES.initial);
  const [attempt, setAttempt] = useState(0);
  const sampleId = useId();
  const sizeId = useId();

  useEffect(() => {
    let isCurrent = true;
    setLoad('loading');
    // The url is quoted for CSS: ids and query strings hold no quote, but a stray one must not end it.
    const face = new FontFace(family, `url("${file.url.replace(/["\\]/g, '')}")`, { display: 'block' });
    face
      .load()
      .then((loaded) => {
        if (!isCurrent) return;
        document.fonts.add(loaded);
        setLoad('ready');
      })
      .catch(() => isCurrent && setLoad('error'));
    return () => {
      isCurrent = false;
    };
  }, [family, file.url, attempt]);

  const fontStyle = { fontFamily: `"${family}", var(--font-sans)` };

  return (
    <article className="font-viewer vi-card" aria-label={`${file.name}: font specimen`} data-state={load}>
      {load === 'error' ? (
        <div className="vi-error" role="alert">
          <span className="vi-error__icon">
            <Icon name="alert" />
          </span>
          <p className="vi-error__title">This font could not be shown.</p>
          <p className="vi-error__text">The file may be damaged or of a format this browser cannot read. Download it to install it.</p>
          <button type="button" className="vi-button vi-button--primary" onClick={() => setAttempt((a) => a + 1)}>
            Try Again
          </button>
        </div>
      ) : (
        <>
          <div className="fv-specimen" aria-busy={load === 'loading'}>
            <p className="fv-hero" style={fontStyle} aria-hidden="true">
              Aa
            </p>
            <div className="fv-glyphs" style={fontStyle}>
              {GLYPH_LINES.map((line) => (
                <p key={line}>{line}</p>
              ))}
            </div>
            {load === 'loading' && (
              <p className="fv-status" role="status">
                Loading the font…
              </p>
            )}
          </div>
          <div className="fv-controls">
            <label className="fv-field" htmlFor={sampleId}>
              <span className="fv-field__label">Sample text</span>
              <input id={sampleId} className="fv-input" type="text" value={sample} maxLength={200} onChange={(e) => setSample(e.target.value)} />
            </label>
            <label className="fv-field fv-field--size" htmlFor={sizeId}>
              <span className="fv-field__label">
                Text size <output htmlFor={sizeId}>{size} px</output>
              </span>
              <input id={sizeId} type="range" min={FONT_SIZES.min} max={FONT_SIZES.max} step={FONT_SIZES.step} value={size} onChange={(e) => setSize(Number(e.target.value))} />
            </label>
          </div>
          <p className="fv-sample" style={{ ...fontStyle, fontSize: `${size}px` }} data-testid="font-sample">
            {sample || FONT_SAMPLE}
          </p>
        </>
      )}
      <footer className="fv-actions">
        <DownloadButton file={file} />
        <FileEngagement site={site} file={file} variant="compact" />
      </footer>
    </article>
  );
}
