/**
 * The header's Sign In and Sign Up modals (spec 2.9): the sign-in form in a sheet dialog, focus on its
 * first field.
 */
import { useId } from 'react';
import { AuthForm } from '../auth/auth-form.tsx';
import { currentReturnPath, type TAuthMode } from '../auth/auth-paths.ts';
import { CloseIcon } from '../ui/icons.tsx';
import { SheetDialog } from '../ui/sheet-dialog.tsx';
import '../ui/close-button.css';
import './auth-dialog.css';

interface TAuthDialogProps {
  mode: TAuthMode;
  onClose: () => void;
}

export function AuthDialog({ mode, onClose }: TAuthDialogProps) {
  const headingId = useId();
  return (
    <SheetDialog
      className="auth-dialog"
      labelledBy={headingId}
      onClose={onClose}
      // The first field, not the close button: the modal opened to be filled in.
      focusOnOpen={(dialog) => dialog.querySelector<HTMLInputElement>('input')?.focus()}
    >
      {(close) => (
        <>
          <button type="button" className="close-button ui-icon-button" aria-label="Close" onClick={close}>
            <CloseIcon size={18} />
          </button>
          <AuthForm initialView={mode} returnTo={currentReturnPath()} headingId={headingId} headingLevel="h2" />
        </>
      )}
    </SheetDialog>
  );
}
