/**
 * The header's Sign In and Sign Up modals (spec 2.9): the sign-in form on a native <dialog>, so the
 * browser keeps focus inside it, makes the page behind inert, closes it on Escape and gives focus
 * back to the button that opened it.
 */
import { useEffect, useId, useRef } from 'react';
import { AuthForm } from '../auth/auth-form.tsx';
import { currentReturnPath, type TAuthMode } from '../auth/auth-paths.ts';
import { CloseIcon } from './icons.tsx';
import './close-button.css';
import './sheet-dialog.css';
import './auth-dialog.css';

interface TAuthDialogProps {
  mode: TAuthMode;
  onClose: () => void;
}

export function AuthDialog({ mode, onClose }: TAuthDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const headingId = useId();

  useEffect(() => {
    const node = dialog.current;
    if (node && !node.open) node.showModal();
    // The first field, not the close button: the modal opened to be filled in.
    node?.querySelector<HTMLInputElement>('input')?.focus();
  }, []);

  const close = () => {
    dialog.current?.close();
    onClose();
  };

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes the dialog; Escape does the same from the keyboard
    <dialog
      ref={dialog}
      className="sheet-dialog auth-dialog"
      aria-labelledby={headingId}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      onClick={(event) => {
        // A click on the dialog element itself, outside its card, is a click on the backdrop.
        if (event.target === event.currentTarget) close();
      }}
    >
      <div className="sheet-dialog__card">
        <button type="button" className="close-button" aria-label="Close" onClick={close}>
          <CloseIcon size={18} />
        </button>
        <AuthForm initialView={mode} returnTo={currentReturnPath()} headingId={headingId} headingLevel="h2" />
      </div>
    </dialog>
  );
}
