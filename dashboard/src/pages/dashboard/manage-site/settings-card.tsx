/** What every card of a site's settings is made of: the card, its text fields and switches, and how a save went. */
import { useId, type ReactNode } from 'react';
import type { TManagedProject } from '@dropsite/shared';
import { Switch } from '../../../ui/switch.tsx';
import type { TSettingsForm } from '../manage-forms.ts';
import '../../../ui/label-text.css';

export type TSaveState = { status: 'idle' } | { status: 'saving' } | { status: 'saved' } | { status: 'error'; message: string };

export const errorMessage = (err: unknown) => (err instanceof Error && err.message ? err.message : 'Something went wrong. Please try again.');

export interface TSectionProps {
  project: TManagedProject;
  onApplied: (project: TManagedProject) => void;
}

/** A card of the settings form: the form as typed, and how a field changes it. */
export interface TSettingsCardProps {
  form: TSettingsForm;
  set: <K extends keyof TSettingsForm>(key: K, value: TSettingsForm[K]) => void;
}

/** One settings card: a heading, what it is for, and its fields or actions. */
export function SettingsCard({ title, intro, children, tone }: { title: string; intro?: ReactNode; children: ReactNode; tone?: 'danger' }) {
  const headingId = useId();
  return (
    <section className="manage-card" aria-labelledby={headingId} data-tone={tone}>
      <div className="manage-card__intro">
        <h2 id={headingId} className="manage-card__title">
          {title}
        </h2>
        {intro && <p className="manage-card__lede">{intro}</p>}
      </div>
      <div className="manage-card__body">{children}</div>
    </section>
  );
}

export function TextField({
  label,
  value,
  onChange,
  hint,
  type = 'text',
  multiline = false,
  maxLength,
  autoComplete = 'off',
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  type?: string;
  multiline?: boolean;
  maxLength?: number;
  autoComplete?: string;
  placeholder?: string;
}) {
  const id = useId();
  const hintId = useId();
  const common = {
    id,
    value,
    className: 'manage-input',
    maxLength,
    placeholder,
    'aria-describedby': hint ? hintId : undefined,
  };
  return (
    <div className="manage-field">
      <label htmlFor={id} className="label-text">
        {label}
      </label>
      {multiline ? (
        <textarea {...common} rows={3} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type={type} autoComplete={autoComplete} onChange={(e) => onChange(e.target.value)} />
      )}
      {hint && (
        <p id={hintId} className="hint-text">
          {hint}
        </p>
      )}
    </div>
  );
}

/** A setting's switch beside its name (and what it does), the same switch as the upload wizard's. */
export function SwitchField({
  label,
  isOn,
  onChange,
  hint,
  disabled = false,
}: {
  label: string;
  isOn: boolean;
  onChange: (isOn: boolean) => void;
  hint?: string | undefined;
  disabled?: boolean;
}) {
  const labelId = useId();
  const hintId = useId();
  return (
    <div className="manage-switch">
      <span className="manage-switch__text">
        <span id={labelId} className="label-text">
          {label}
        </span>
        {hint && (
          <span id={hintId} className="hint-text">
            {hint}
          </span>
        )}
      </span>
      <Switch isOn={isOn} onChange={onChange} labelledBy={labelId} describedBy={hint ? hintId : undefined} disabled={disabled} />
    </div>
  );
}
