/**
 * The pieces every public form is made of: a labelled field with its error line, the hidden
 * honeypot, the live regions and the confirmation shown once sent. Plain HTML, prerendered; the
 * forms island (form-island.ts) reads the data-* hooks.
 */
import type { ReactNode } from 'react';
import { FORM_CONFIRMATIONS, FORM_ENDPOINTS, FORM_LIMITS, HONEYPOT_FIELD, type TFormKind } from '@dropsite/shared/browser/form-rules';
import { AlertIcon, CheckIcon } from '../ui/icons.tsx';
import './forms.css';

export type THeadingLevel = 'h2' | 'h3';

interface TFieldProps {
  /** The form's id prefix; the input's id is `${idPrefix}-${name}`. */
  idPrefix: string;
  name: string;
  label: string;
  type?: 'text' | 'email';
  /** Shown after the label when the field may be left empty. */
  isOptional?: boolean;
  maxLength: number;
  autoComplete?: string;
  placeholder?: string;
  /** A textarea of this many rows instead of an input. */
  rows?: number;
  /** The label is read by assistive technology only (the newsletter's one field). */
  isLabelHidden?: boolean;
}

export function Field({ idPrefix, name, label, type = 'text', isOptional = false, maxLength, autoComplete, placeholder, rows, isLabelHidden = false }: TFieldProps) {
  const id = `${idPrefix}-${name}`;
  const common = {
    id,
    name,
    maxLength,
    required: !isOptional,
    placeholder,
    autoComplete,
    'aria-describedby': `${id}-error`,
  };
  return (
    <div className="form-field">
      <label htmlFor={id} className={isLabelHidden ? 'form-visually-hidden' : 'form-field__label'}>
        {label}
        {isOptional && <span className="form-field__optional"> (optional)</span>}
      </label>
      {rows ? (
        <textarea {...common} rows={rows} className="form-field__control ui-field form-field__control--area" />
      ) : (
        <input {...common} type={type} className="form-field__control ui-field" />
      )}
      <p id={`${id}-error`} className="form-field__error" data-error-for={name} hidden />
    </div>
  );
}

/** A field people never see or reach (off-screen, out of the tab order, hidden from assistive technology): only bots fill it. */
export function Honeypot({ idPrefix }: { idPrefix: string }) {
  return (
    <div className="form-trap" aria-hidden="true">
      <label htmlFor={`${idPrefix}-${HONEYPOT_FIELD}`}>Leave this field empty</label>
      <input id={`${idPrefix}-${HONEYPOT_FIELD}`} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

/** The server's refusal (role alert) and the polite progress line ('Sending…'). */
export function FormMessages() {
  return (
    <>
      <div className="form-alert ui-alert" role="alert" data-form-error hidden>
        <AlertIcon size={18} />
        <p data-form-error-text />
      </div>
      <p className="form-visually-hidden" role="status" aria-live="polite" data-form-status />
    </>
  );
}

/** The form's messages, then its large submit button. */
export function FormSubmit({ label }: { label: string }) {
  return (
    <>
      <FormMessages />
      <button type="submit" className="button button--primary button--large public-form__submit" data-form-submit>
        {label}
      </button>
    </>
  );
}

/** Who writes: name and email address side by side. */
export function SenderFields({ idPrefix, nameLabel, isOptional = false }: { idPrefix: string; nameLabel: string; isOptional?: boolean }) {
  return (
    <div className="public-form__row">
      <Field idPrefix={idPrefix} name="name" label={nameLabel} isOptional={isOptional} maxLength={FORM_LIMITS.name} autoComplete="name" />
      <Field
        idPrefix={idPrefix}
        name="email"
        label="Email address"
        type="email"
        isOptional={isOptional}
        maxLength={FORM_LIMITS.email}
        autoComplete="email"
        placeholder="you@example.com"
      />
    </div>
  );
}

/** The confirmation, prerendered hidden; the island shows it and moves focus to its heading. */
export function FormDone({ kind, headingLevel, againLabel }: { kind: TFormKind; headingLevel: THeadingLevel; againLabel?: string }) {
  const { title, body } = FORM_CONFIRMATIONS[kind];
  const Heading = headingLevel;
  return (
    <div className="form-done" data-form-done hidden>
      <span className="form-done__mark ui-tile" aria-hidden="true">
        <CheckIcon size={24} />
      </span>
      <Heading className="form-done__title" tabIndex={-1} data-form-done-title>
        {title}
      </Heading>
      <p className="form-done__body">{body}</p>
      {againLabel && (
        <button type="button" className="button button--secondary" data-form-again>
          {againLabel}
        </button>
      )}
    </div>
  );
}

/**
 * A form that posts to its API call: with JavaScript off the browser checks the required fields and
 * the server answers a small page; the island sends it as JSON and shows the answer in place.
 */
export function PublicForm({ kind, idPrefix, className, children }: { kind: TFormKind; idPrefix: string; className?: string; children: ReactNode }) {
  return (
    <form id={`${idPrefix}-form`} className={`public-form public-form--${kind}${className ? ` ${className}` : ''}`} method="post" action={FORM_ENDPOINTS[kind]} data-form={kind}>
      {children}
      <Honeypot idPrefix={idPrefix} />
    </form>
  );
}
