/** A question before a change that cannot be taken back (removing a member, leaving): Cancel, or the action, with its failure shown in place. */
import { useId, useState, type ReactNode } from 'react';
import { failureMessage } from '../../auth/failure-message.ts';
import { AlertIcon } from '../../ui/icons.tsx';
import { SheetDialog } from '../../ui/sheet-dialog.tsx';

interface TConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  /** Runs the change; the dialog closes once it resolves and shows the refusal when it rejects. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

export function ConfirmDialog({ title, children, confirmLabel, busyLabel, onConfirm, onClose }: TConfirmDialogProps) {
  const titleId = useId();
  const textId = useId();
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <SheetDialog className="workspace-dialog" labelledBy={titleId} describedBy={textId} onClose={onClose}>
      {(close) => (
        <div className="workspace-dialog__form">
          <h2 id={titleId} className="workspace-dialog__title">
            {title}
          </h2>
          <div id={textId} className="workspace-dialog__text">
            {children}
          </div>
          {error && (
            <p className="auth-form__error ui-alert" role="alert">
              <AlertIcon size={16} />
              {error}
            </p>
          )}
          <div className="workspace-dialog__actions">
            <button type="button" className="button button--secondary" onClick={close} autoFocus>
              Cancel
            </button>
            <button
              type="button"
              className="button account-danger-button"
              disabled={isBusy}
              onClick={() => {
                setBusy(true);
                setError(null);
                onConfirm().then(close, (failure: unknown) => {
                  setError(failureMessage(failure));
                  setBusy(false);
                });
              }}
            >
              {isBusy ? busyLabel : confirmLabel}
            </button>
          </div>
        </div>
      )}
    </SheetDialog>
  );
}
