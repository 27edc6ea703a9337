/**
 * Asks the visitor for their name, once per device, before their first favourite, comment or
 * review (and again when they choose to change it): a small modal dialog with 'Your name' and an
 * optional 'Email (optional)' that only the site's creator sees. Saving stores both on the server
 * (the visitor's cookie is who they are) and on the device, so the next visit fills the form.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { ApiRequestError } from '@dropsite/shared/browser/api-client';
import { saveVisitorProfile, type TVisitorProfile } from './engagement-api.ts';
import { CloseIcon } from './icons.tsx';
import { VISITOR_NAME_MAX_LENGTH, isVisitorEmailSendable, visitorNameProblem } from './reply-readers.ts';

/** The device's copy of what the visitor last gave (prefills the form when a site asks again). */
const DEVICE_KEY = 'dropsite.visitorProfile';

export function readDeviceProfile(): { name: string; email: string } {
  try {
    const saved = JSON.parse(localStorage.getItem(DEVICE_KEY) ?? 'null') as unknown;
    if (typeof saved === 'object' && saved !== null) {
      const { name, email } = saved as Record<string, unknown>;
      return { name: typeof name === 'string' ? name : '', email: typeof email === 'string' ? email : '' };
    }
  } catch {
    // Storage refused or unreadable: nothing remembered.
  }
  return { name: '', email: '' };
}

function rememberOnDevice(profile: TVisitorProfile): void {
  try {
    localStorage.setItem(DEVICE_KEY, JSON.stringify({ name: profile.name, email: profile.email ?? '' }));
  } catch {
    // Storage refused: the server still knows the name through the visitor's cookie.
  }
}

export interface TVisitorNameDialogProps {
  /** 'first' before an action (it completes once saved); 'change' from 'Change' beside the name. */
  mode: 'first' | 'change';
  initialName: string;
  initialEmail: string;
  onSaved: (profile: TVisitorProfile) => void;
  onCancel: () => void;
}

export function VisitorNameDialog({ mode, initialName, initialEmail, onSaved, onCancel }: TVisitorNameDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const [name, setName] = useState(initialName);
  const [email, setEmail] = useState(initialEmail);
  const [problem, setProblem] = useState<{ field: 'name' | 'email' | null; text: string } | null>(null);
  const [isSaving, setSaving] = useState(false);
  const titleId = useId();
  const nameId = useId();
  const emailId = useId();
  const emailHintId = useId();
  const errorId = useId();

  // Opened on the name field; closed, focus goes back to what opened it (the button pressed).
  useEffect(() => {
    const element = dialog.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (element && !element.open) element.showModal();
    nameInput.current?.focus();
    return () => {
      element?.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isSaving) return;
    const nameProblem = visitorNameProblem(name);
    if (nameProblem) return setProblem({ field: 'name', text: nameProblem });
    if (!isVisitorEmailSendable(email)) return setProblem({ field: 'email', text: 'Please enter a valid email address, or leave it empty.' });
    setProblem(null);
    setSaving(true);
    try {
      const profile = await saveVisitorProfile(name, email);
      rememberOnDevice(profile);
      onSaved(profile);
    } catch (err) {
      const isRefused = err instanceof ApiRequestError && err.status === 400;
      setProblem({ field: null, text: isRefused ? err.message : 'Couldn’t save your name. Please try again.' });
      setSaving(false);
    }
  };

  // The dialog sits inside viewers that take Escape and arrow keys themselves: its keys stay here.
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => event.stopPropagation();

  return (
    <dialog
      ref={dialog}
      className="visitor-name site-dialog"
      aria-labelledby={titleId}
      data-visitor-name=""
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        event.preventDefault();
        event.stopPropagation();
        if (!isSaving) onCancel();
      }}
    >
      <form className="visitor-name__form" onSubmit={(event) => void submit(event)} noValidate>
        <div className="visitor-name__header">
          <h2 id={titleId} className="visitor-name__title">
            {mode === 'first' ? 'What’s your name?' : 'Change your name'}
          </h2>
          <button type="button" className="engagement-icon-button ui-icon-button" aria-label="Close" onClick={onCancel} disabled={isSaving}>
            <CloseIcon />
          </button>
        </div>
        <p className="visitor-name__intro">The creator of this site sees it beside your favourites, comments and reviews. This device remembers it.</p>

        <label className="visitor-name__label" htmlFor={nameId}>
          Your name
        </label>
        <input
          ref={nameInput}
          id={nameId}
          className="visitor-name__input"
          name="name"
          autoComplete="name"
          maxLength={VISITOR_NAME_MAX_LENGTH + 20}
          value={name}
          readOnly={isSaving}
          aria-invalid={problem?.field === 'name' || undefined}
          aria-describedby={problem?.field === 'name' ? errorId : undefined}
          onChange={(event) => setName(event.target.value)}
        />

        <label className="visitor-name__label" htmlFor={emailId}>
          Email (optional)
        </label>
        <input
          id={emailId}
          className="visitor-name__input"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          maxLength={320}
          value={email}
          readOnly={isSaving}
          aria-invalid={problem?.field === 'email' || undefined}
          aria-describedby={problem?.field === 'email' ? `${emailHintId} ${errorId}` : emailHintId}
          onChange={(event) => setEmail(event.target.value)}
        />
        <p id={emailHintId} className="visitor-name__hint">
          Only the site’s creator sees it, so they can get back to you. Other visitors never do.
        </p>

        <p id={errorId} className="visitor-name__error" role="alert">
          {problem?.text ?? ''}
        </p>

        <div className="visitor-name__actions">
          <button type="button" className="engagement-button" onClick={onCancel} disabled={isSaving}>
            Cancel
          </button>
          <button type="submit" className="engagement-button engagement-button--primary" aria-busy={isSaving || undefined}>
            {isSaving ? 'Saving…' : mode === 'first' ? 'Continue' : 'Save'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
