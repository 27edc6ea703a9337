/**
 * A short confirmation that floats at the foot of the page ('Site deleted'), read out politely,
 * closed with its × or by itself after a few seconds. `queueToast` keeps the message for the next
 * page this tab opens, for an action that ends by leaving the page it was taken on.
 */
import { useEffect, useState } from 'react';
import { CheckIcon, CloseIcon } from './icons.tsx';
import './toast.css';

const PENDING_KEY = 'dropsite.pendingToast';
/** Long enough to read twice. */
const TOAST_MS = 6000;

export function queueToast(message: string): void {
  try {
    window.sessionStorage.setItem(PENDING_KEY, message);
  } catch {
    // Without session storage the next page simply says nothing.
  }
}

function takePendingToast(): string | null {
  try {
    const message = window.sessionStorage.getItem(PENDING_KEY);
    window.sessionStorage.removeItem(PENDING_KEY);
    return message;
  } catch {
    return null;
  }
}

/** Shows the message a previous page queued, once. */
export function PendingToast() {
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => setMessage(takePendingToast()), []);
  useEffect(() => {
    if (message === null) return;
    const timer = window.setTimeout(() => setMessage(null), TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [message]);
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {message !== null && (
        <div className="toast" data-testid="toast">
          <CheckIcon size={18} />
          <span className="toast__text">{message}</span>
          <button type="button" className="toast__close ui-icon-button" aria-label="Close" onClick={() => setMessage(null)}>
            <CloseIcon size={16} />
          </button>
        </div>
      )}
    </div>
  );
}
