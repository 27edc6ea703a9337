import { useEffect, useId, useRef, useState } from 'react';
import { ANONYMOUS_WINDOW_DAYS, COPY_CONFIRMATION_MS, QR_CODE } from '@dropsite/shared';
import { copyText } from '@dropsite/shared/browser/clipboard';
import { CheckIcon, PlusIcon, CheckCircleIcon, CopyIcon, DownloadIcon, ExternalIcon, ShareIcon } from '../ui/icons.tsx';
import { useSession } from '../auth/session-store.ts';
import { SignUpLink } from '../auth/sign-up-link.tsx';

interface TSuccessStepProps {
  /** Null until the upload has finished and the server named the site. */
  url: string | null;
  slug: string | null;
  title: string;
  onCreateAnother: () => void;
}

type TQrCode = { png: string; svg: string };

function downloadHref(href: string, name: string) {
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
}

/** The last step: the link, a copy button, the QR code and where to go next. */
export function SuccessStep({ url, slug, title, onCreateAnother }: TSuccessStepProps) {
  const [isCopied, setCopied] = useState(false);
  const [qr, setQr] = useState<TQrCode | null>(null);
  const [shareNote, setShareNote] = useState('');
  const copyTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const ids = { heading: useId(), url: useId() };

  useEffect(() => () => void (copyTimer.current && clearTimeout(copyTimer.current)), []);

  useEffect(() => {
    if (!url) return;
    headingRef.current?.focus();
    let isCurrent = true;
    const options = { width: QR_CODE.width, margin: QR_CODE.margin, errorCorrectionLevel: 'M' as const, color: { dark: '#1c1b19', light: '#ffffff' } };
    // QR failures are ignored (spec 8): the link and copy button still work.
    // Loaded on demand: the encoder is only needed once a site exists.
    import('qrcode')
      .then(({ default: QRCode }) => Promise.all([QRCode.toDataURL(url, options), QRCode.toString(url, { ...options, type: 'svg' })]))
      .then(([png, svg]) => isCurrent && setQr({ png, svg }))
      .catch(() => {});
    return () => {
      isCurrent = false;
    };
  }, [url]);

  const copy = async () => {
    if (!url) return;
    if (!(await copyText(url))) return;
    setCopied(true);
    if (copyTimer.current) clearTimeout(copyTimer.current);
    copyTimer.current = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
  };

  const share = async () => {
    if (!url) return;
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, text: title, url });
        return;
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return; // the creator closed the share sheet
      }
    }
    await copy();
    setShareNote('Link copied. Paste it anywhere to share.');
  };

  const fileBase = `dropsite-${slug ?? 'site'}-qr`;

  return (
    <div className="wizard-step success">
      <div className="success__head">
        <span className="success__icon" aria-hidden="true">
          <CheckCircleIcon size={28} />
        </span>
        <h3 className="success__title" id={ids.heading} ref={headingRef} tabIndex={-1}>
          Your site has been created!
        </h3>
        <p className="success__lede">Share the link or the QR code. Visitors can view and download every file.</p>
      </div>

      <div className="share-link">
        <label className="visually-hidden" htmlFor={ids.url}>
          Site URL
        </label>
        <input
          id={ids.url}
          className="share-link__url"
          data-testid="site-url"
          readOnly
          value={url ?? ''}
          placeholder="Finishing your link…"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="button button--primary share-link__copy" onClick={copy} disabled={!url} aria-live="polite">
          {isCopied ? <CheckIcon size={18} /> : <CopyIcon size={18} />}
          {isCopied ? 'Copied!' : 'Copy'}
        </button>
      </div>

      <div className="qr-card">
        <div className="qr-card__code">
          {qr ? (
            <img src={qr.png} width={QR_CODE.width} height={QR_CODE.width} alt={`QR code for ${url}`} data-testid="qr-code" />
          ) : (
            <span className="qr-card__placeholder" aria-hidden="true" />
          )}
        </div>
        <div className="qr-card__downloads">
          <span>Download QR code</span>
          <div>
            <button type="button" className="chip-button" disabled={!qr} onClick={() => qr && downloadHref(qr.png, `${fileBase}.png`)}>
              <DownloadIcon size={16} />
              PNG
            </button>
            <button
              type="button"
              className="chip-button"
              disabled={!qr}
              onClick={() => {
                if (!qr) return;
                const href = URL.createObjectURL(new Blob([qr.svg], { type: 'image/svg+xml' }));
                downloadHref(href, `${fileBase}.svg`);
                setTimeout(() => URL.revokeObjectURL(href), 1000);
              }}
            >
              <DownloadIcon size={16} />
              SVG
            </button>
          </div>
        </div>
      </div>

      <div className="success__actions">
        <a className="button button--primary" href={url ?? undefined} target="_blank" rel="noopener" aria-disabled={!url || undefined} onClick={(e) => !url && e.preventDefault()}>
          <ExternalIcon size={18} />
          View Your Site
        </a>
        <button type="button" className="button button--secondary" onClick={share} disabled={!url}>
          <ShareIcon size={18} />
          Share Link
        </button>
      </div>
      <p className="success__note" role="status">
        {shareNote}
      </p>
      <AccountNote />
      <button type="button" className="text-button success__again" onClick={onCreateAnother}>
        <PlusIcon size={16} />
        Create Another Site
      </button>
    </div>
  );
}

/** Signed out, the site stays online but this browser follows it only for the anonymous window: say how to keep it. */
function AccountNote() {
  const session = useSession();
  if (session.status !== 'signed-out') return null;
  return (
    <p className="success__account">
      This site stays online, and this browser can follow it for {ANONYMOUS_WINDOW_DAYS} days. <SignUpLink className="success__account-link">Sign up free</SignUpLink> to keep it in
      your dashboard, with everything visitors do on it.
    </p>
  );
}
