/**
 * The email-collection modal (spec 2.7, 4, 5): one of four variants, an address checked as it is
 * typed (a checkmark when valid), submit disabled until valid and while sending ('Setting up...').
 * Skip, close and success each send their analytics event (spec 9). Success says what was mailed:
 * the sign-in link, or (an address this browser has not confirmed yet) the confirmation message,
 * which is followed by the sign-in link that keeps the sites once the address is confirmed.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import type { TEmailTrigger } from '@dropsite/shared';
import { AlertIcon, CheckIcon, CloseIcon } from '../ui/icons.tsx';
import '../ui/close-button.css';
import '../ui/sheet-dialog.css';
import { SignUpLink } from '../auth/sign-up-link.tsx';
import { EMAIL_PROMPT_COPY } from './email-copy.ts';
import { isEmailValid, type TCollectedEmailRecord } from './email-prompt.ts';
import { sendProductEvent, submitCollectedEmail } from '../dashboard-api/engagement-api.ts';

interface TEmailModalProps {
  trigger: TEmailTrigger;
  projectId: string | null;
  sessionId: string | null;
  onCollected: (record: TCollectedEmailRecord) => void;
  /** `wasDismissed`: closed or skipped before an address was given. */
  onClose: (wasDismissed: boolean) => void;
}

type TStatus = 'editing' | 'submitting' | 'failed' | 'done';
type TSent = Awaited<ReturnType<typeof submitCollectedEmail>>;

export function EmailModal({ trigger, projectId, sessionId, onCollected, onClose }: TEmailModalProps) {
  const copy = EMAIL_PROMPT_COPY[trigger];
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [status, setStatus] = useState<TStatus>('editing');
  const [sent, setSent] = useState<TSent>('sign_in_link');
  const [isTouched, setTouched] = useState(false);
  const ids = { title: useId(), subtitle: useId(), input: useId(), hint: useId() };
  const isValid = isEmailValid(email);
  const canSubmit = isValid && status !== 'submitting';
  const eventBase = { trigger, projectId, anonymousSessionId: sessionId };

  useEffect(() => {
    const node = dialog.current;
    if (node && !node.open) node.showModal();
    input.current?.focus();
  }, []);

  const close = (event: 'email_collection_skipped' | 'email_modal_dismissed' | null) => {
    if (event) sendProductEvent({ event, ...eventBase, timestamp: Date.now() });
    dialog.current?.close();
    onClose(event !== null);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmit) return;
    const address = email.trim();
    setStatus('submitting');
    try {
      setSent(await submitCollectedEmail({ email: address, trigger, projectId, anonymousSessionId: sessionId, timestamp: Date.now() }));
    } catch {
      setStatus('failed');
      return;
    }
    onCollected({ email: address, collected_via: trigger, collected_at: Date.now(), project_id: projectId });
    sendProductEvent({ event: 'email_collected', ...eventBase, timestamp: Date.now() });
    setStatus('done');
  };

  const onBackdropClick = (event: MouseEvent<HTMLDialogElement>) => {
    // A click on the dialog element itself, outside its card, is a click on the backdrop.
    if (event.target === dialog.current) close(status === 'done' ? null : 'email_modal_dismissed');
  };

  const showHint = isTouched && email.trim() !== '' && !isValid;

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes the dialog; Escape does the same from the keyboard
    <dialog
      ref={dialog}
      className="sheet-dialog email-modal"
      aria-labelledby={ids.title}
      aria-describedby={ids.subtitle}
      data-trigger={trigger}
      onCancel={(event) => {
        event.preventDefault();
        close(status === 'done' ? null : 'email_modal_dismissed');
      }}
      onClick={onBackdropClick}
    >
      <div className="sheet-dialog__card">
        <button type="button" className="close-button ui-icon-button" aria-label="Close" onClick={() => close(status === 'done' ? null : 'email_modal_dismissed')}>
          <CloseIcon size={18} />
        </button>

        {status === 'done' ? (
          <div className="email-modal__done" role="status">
            <span className="email-modal__done-mark" aria-hidden="true">
              <CheckIcon size={28} />
            </span>
            <h2 id={ids.title}>You’re all set</h2>
            <DoneMessage id={ids.subtitle} email={email.trim()} sent={sent} />
            <p className="email-modal__alternative">
              Prefer a password? <SignUpLink className="email-modal__alternative-link">Create an account</SignUpLink>
            </p>
            <button type="button" className="button button--primary button--large email-modal__submit" onClick={() => close(null)}>
              Done
            </button>
          </div>
        ) : (
          <>
            <span className="email-modal__eyebrow">{eyebrowFor(trigger)}</span>
            <h2 id={ids.title}>{copy.title}</h2>
            <p id={ids.subtitle} className="email-modal__subtitle">
              {copy.subtitle}
            </p>
            <ul className="email-modal__benefits" role="list">
              {copy.benefits.map((benefit) => (
                <li key={benefit}>
                  <span className="email-modal__benefit-mark" aria-hidden="true">
                    <CheckIcon size={14} />
                  </span>
                  {benefit}
                </li>
              ))}
            </ul>
            <form className="email-modal__form" onSubmit={onSubmit} noValidate>
              <label htmlFor={ids.input} className="email-modal__label">
                Email address
              </label>
              <div className="email-modal__field" data-valid={isValid ? '' : undefined}>
                <input
                  ref={input}
                  className="ui-field"
                  id={ids.input}
                  type="email"
                  inputMode="email"
                  autoComplete="email"
                  autoCapitalize="off"
                  spellCheck={false}
                  placeholder="you@studio.com"
                  value={email}
                  maxLength={320}
                  readOnly={status === 'submitting'}
                  aria-invalid={showHint || undefined}
                  aria-describedby={showHint || status === 'failed' ? ids.hint : undefined}
                  onChange={(event) => {
                    setEmail(event.target.value);
                    if (status === 'failed') setStatus('editing');
                  }}
                  onBlur={() => setTouched(true)}
                />
                {isValid && (
                  <span className="email-modal__check" aria-label="Valid email address" role="img">
                    <CheckIcon size={16} />
                  </span>
                )}
              </div>
              {showHint && (
                <p id={ids.hint} className="email-modal__hint">
                  Enter an address like name@example.com.
                </p>
              )}
              {status === 'failed' && (
                <p id={ids.hint} className="email-modal__error" role="alert">
                  <AlertIcon size={16} />
                  We couldn’t save your email. Please try again.
                </p>
              )}
              <button type="submit" className="button button--primary button--large email-modal__submit" disabled={!canSubmit}>
                {status === 'submitting' ? 'Setting up...' : copy.cta}
              </button>
            </form>
            <button type="button" className="quiet-button email-modal__skip" onClick={() => close('email_collection_skipped')}>
              {copy.skip}
            </button>
            <p className="email-modal__fine-print">No password needed, just an address.</p>
          </>
        )}
      </div>
    </dialog>
  );
}

function eyebrowFor(trigger: TEmailTrigger): string {
  switch (trigger) {
    case 'first_engagement':
      return 'New activity';
    case 'high_views':
      return 'Trending';
    case 'return_visit':
      return 'Your sites';
    case 'success_page':
      return 'Published';
  }
}

/** What was mailed, in the words of the done screen. */
function DoneMessage({ id, email, sent }: { id: string; email: string; sent: TSent }) {
  if (sent === 'confirmation') {
    return (
      <p id={id}>
        We sent a confirmation link to <strong>{email}</strong>. Confirm your address and we send you a sign-in link there: open it on any device to keep your sites, and everything
        visitors do on them, in a free account.
      </p>
    );
  }
  if (sent === 'none') {
    return (
      <p id={id}>
        We saved <strong>{email}</strong> for this browser.
      </p>
    );
  }
  return (
    <p id={id}>
      We sent a sign-in link to <strong>{email}</strong>. Open it on any device: it signs you in to a free account that keeps your sites and everything visitors do on them.
    </p>
  );
}
