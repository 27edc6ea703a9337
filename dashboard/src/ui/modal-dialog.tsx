/**
 * A modal on the native <dialog>: the browser traps focus, makes the page inert, closes on
 * Escape and restores focus. Used for 'View Files' and the publish-failure alert.
 */
import { useEffect, useRef, type ReactNode } from 'react';

interface TModalDialogProps {
  isOpen: boolean;
  onClose: () => void;
  labelledBy: string;
  describedBy?: string;
  /** role="alertdialog" for messages that need an answer. */
  isAlert?: boolean;
  className?: string;
  children: ReactNode;
}

export function ModalDialog({ isOpen, onClose, labelledBy, describedBy, isAlert = false, className = '', children }: TModalDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (isOpen && !el.open) el.showModal();
    if (!isOpen && el.open) el.close();
  }, [isOpen]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes the dialog; Escape does the same from the keyboard
    <dialog
      ref={dialog}
      className={`wizard-dialog ${className}`}
      role={isAlert ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the dialog element itself is a click on its backdrop.
        if (event.target === event.currentTarget && !isAlert) onClose();
      }}
    >
      {isOpen && children}
    </dialog>
  );
}
