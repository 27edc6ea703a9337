/**
 * A labelled field of the wizard around its input: the label (marked Required or Optional), then
 * either a line under the input that shows the error in place of the hint (`${inputId}-hint`), or,
 * for a field without a hint, the error alone once there is one (`${inputId}-error`).
 */
import type { ReactNode } from 'react';

interface IWizardFieldProps {
  inputId: string;
  label: string;
  mark?: 'required' | 'optional';
  hint?: string;
  error?: string | null;
  /** The contact detail the field edits (`data-contact-field`). */
  contactField?: string;
  children: ReactNode;
}

export function WizardField({ inputId, label, mark, hint, error, contactField, children }: IWizardFieldProps) {
  return (
    <div className="field" data-contact-field={contactField}>
      <label className="field__label" htmlFor={inputId}>
        {mark ? `${label} ` : label}
        {mark && <span className={`field__${mark}`}>{mark === 'required' ? 'Required' : 'Optional'}</span>}
      </label>
      {children}
      {hint !== undefined ? (
        <p className={error ? 'field__error' : 'field__hint'} id={`${inputId}-hint`}>
          {error ?? hint}
        </p>
      ) : (
        error && (
          <p className="field__error" id={`${inputId}-error`}>
            {error}
          </p>
        )
      )}
    </div>
  );
}
