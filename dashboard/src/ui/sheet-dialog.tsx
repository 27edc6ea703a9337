/**
 * A modal card on a native <dialog>: the browser keeps focus inside it, makes the page behind inert
 * and gives focus back to what opened it. It opens when mounted; Escape, a click on the backdrop and
 * the `close` its content is given all close it and tell the owner, who then unmounts it.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import './sheet-dialog.css';

interface TSheetDialogProps {
  /** Classes of the dialog and of its card, beside `sheet-dialog` and `sheet-dialog__card`. */
  className: string;
  cardClassName?: string;
  labelledBy: string;
  describedBy?: string;
  onClose: () => void;
  /** Where focus goes once it is open (by default the browser's choice: the first focusable or autofocus element). */
  focusOnOpen?: (dialog: HTMLDialogElement) => void;
  children: (close: () => void) => ReactNode;
}

export function SheetDialog({ className, cardClassName, labelledBy, describedBy, onClose, focusOnOpen, children }: TSheetDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  // Read when it opens: the owner's latest choice, without reopening the dialog when it changes.
  const focus = useRef(focusOnOpen);
  focus.current = focusOnOpen;

  useEffect(() => {
    const node = dialog.current;
    if (!node) return;
    if (!node.open) node.showModal();
    focus.current?.(node);
  }, []);

  const close = () => {
    dialog.current?.close();
    onClose();
  };

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes the dialog; Escape does the same from the keyboard
    <dialog
      ref={dialog}
      className={`sheet-dialog ${className}`}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      onClick={(event) => {
        // A click on the dialog element itself, outside its card, is a click on the backdrop.
        if (event.target === event.currentTarget) close();
      }}
    >
      <div className={cardClassName ? `sheet-dialog__card ${cardClassName}` : 'sheet-dialog__card'}>{children(close)}</div>
    </dialog>
  );
}
