import { useEffect, useId, useState } from 'react';
import { CONTACT_EMAIL_MAX_LENGTH, CONTACT_LINK_MAX_LENGTH, UPLOAD_LIMITS, type TContactField } from '@dropsite/shared';
import { LockIcon, CalendarIcon } from '../ui/icons.tsx';
import { formatExpiryBadge, toDateTimeLocal, validateDetails } from './details-validation.ts';
import type { TWizardForm } from './wizard-state.ts';
import { WizardActions } from './wizard-actions.tsx';
import { WizardField } from './wizard-field.tsx';

type TDetailsField = 'title' | 'description' | 'authorName' | 'password' | 'expiryDate';

interface TDetailsStepProps {
  form: TWizardForm;
  onEdit: (field: TDetailsField, value: string) => void;
  onEditContact: (field: TContactField, value: string) => void;
  onBack: () => void;
  onContinue: () => void;
}

/** The current minute, refreshed so the expiry minimum never lags behind the clock. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The footer's contact fields (spec 2.4): each optional, each shown on the site only when filled in.
 * Links are text inputs: a bare domain or a handle is fine, so type=url would mark them invalid.
 */
const CONTACT_FIELDS: ReadonlyArray<{
  field: TContactField;
  label: string;
  type: 'email' | 'text';
  /** The keyboard phones show; handles take the plain one. */
  inputMode?: 'email' | 'url';
  autoComplete: string;
  placeholder: string;
  hint: string;
}> = [
  {
    field: 'email',
    label: 'Contact Email',
    type: 'email',
    inputMode: 'email',
    autoComplete: 'email',
    placeholder: 'you@studio.com',
    hint: "The footer's ‘Get in touch’ button writes to it",
  },
  {
    field: 'website',
    label: 'Website',
    type: 'text',
    inputMode: 'url',
    autoComplete: 'url',
    placeholder: 'https://yourstudio.com',
    hint: 'A link starting with https://, or just the domain',
  },
  {
    field: 'instagram',
    label: 'Instagram',
    type: 'text',
    autoComplete: 'off',
    placeholder: '@handle',
    hint: 'A handle, or a link to instagram.com',
  },
  { field: 'twitter', label: 'Twitter', type: 'text', autoComplete: 'off', placeholder: '@handle', hint: 'A handle, or a link to x.com' },
  { field: 'linkedin', label: 'LinkedIn', type: 'text', autoComplete: 'off', placeholder: 'profile-name', hint: 'Your profile name, or a link to linkedin.com/in/' },
  { field: 'github', label: 'GitHub', type: 'text', autoComplete: 'off', placeholder: 'username', hint: 'A username, or a link to github.com' },
];

/** Step 3: what visitors read, how they reach the creator, and how the site is protected. */
export function DetailsStep({ form, onEdit, onEditContact, onBack, onContinue }: TDetailsStepProps) {
  const now = useNow();
  const [touched, setTouched] = useState<Partial<Record<TDetailsField, boolean>>>({});
  const [contactTouched, setContactTouched] = useState<Partial<Record<TContactField, boolean>>>({});
  const contactIds = useId();
  const validation = validateDetails(form, now);
  const ids = { title: useId(), description: useId(), author: useId(), password: useId(), expiry: useId() };
  const expiryBadge = validation.expiryDate ? null : formatExpiryBadge(form.expiryDate);
  const touch = (field: TDetailsField) => setTouched((t) => ({ ...t, [field]: true }));
  const errorOf = (field: 'title' | 'expiryDate' | 'password') => (touched[field] || (field === 'expiryDate' && form.expiryDate !== '') ? validation[field] : null);

  return (
    <form
      className="wizard-step details-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (validation.canContinue) onContinue();
        else {
          setTouched({ title: true, expiryDate: true, password: true });
          setContactTouched(Object.fromEntries(CONTACT_FIELDS.map(({ field }) => [field, true])));
        }
      }}
    >
      <WizardField inputId={ids.title} label="Site Title" mark="required" error={errorOf('title')}>
        <input
          id={ids.title}
          className="field__input"
          value={form.title}
          maxLength={UPLOAD_LIMITS.maxTitleLength}
          autoComplete="off"
          required
          aria-invalid={errorOf('title') ? true : undefined}
          aria-describedby={errorOf('title') ? `${ids.title}-error` : undefined}
          placeholder="e.g. Harper & Cole wedding"
          onChange={(e) => onEdit('title', e.target.value)}
          onBlur={() => touch('title')}
        />
      </WizardField>

      <WizardField inputId={ids.description} label="Description" mark="optional">
        <textarea
          id={ids.description}
          className="field__input field__input--area"
          value={form.description}
          rows={3}
          maxLength={UPLOAD_LIMITS.maxDescriptionLength}
          placeholder="A line or two your visitors read under the title"
          onChange={(e) => onEdit('description', e.target.value)}
        />
      </WizardField>

      <WizardField inputId={ids.author} label="Author Name" mark="optional">
        <input
          id={ids.author}
          className="field__input"
          value={form.authorName}
          maxLength={UPLOAD_LIMITS.maxAuthorNameLength}
          autoComplete="name"
          placeholder="Shown as ‘By …’ under the title"
          onChange={(e) => onEdit('authorName', e.target.value)}
        />
      </WizardField>

      <fieldset className="contact-fields">
        <legend className="contact-fields__legend">
          Contact details <span className="field__optional">Optional</span>
        </legend>
        <p className="field__hint contact-fields__lede">Shown in your site's footer; only what you fill in appears.</p>
        <div className="contact-fields__grid">
          {CONTACT_FIELDS.map(({ field, label, type, inputMode, autoComplete, placeholder, hint }) => {
            const id = `${contactIds}-${field}`;
            const error = contactTouched[field] ? (validation.contact[field] ?? null) : null;
            return (
              <WizardField key={field} inputId={id} label={label} hint={hint} error={error} contactField={field}>
                <input
                  id={id}
                  className="field__input"
                  type={type}
                  inputMode={inputMode}
                  value={form.contactInfo[field]}
                  maxLength={field === 'email' ? CONTACT_EMAIL_MAX_LENGTH : CONTACT_LINK_MAX_LENGTH}
                  autoComplete={autoComplete}
                  autoCapitalize="none"
                  spellCheck={false}
                  placeholder={placeholder}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={`${id}-hint`}
                  onChange={(e) => onEditContact(field, e.target.value)}
                  onBlur={() => setContactTouched((t) => ({ ...t, [field]: true }))}
                />
              </WizardField>
            );
          })}
        </div>
      </fieldset>

      <div className="field-row">
        <WizardField inputId={ids.password} label="Password Protection" mark="optional" hint="Leave empty for public access" error={errorOf('password')}>
          <input
            id={ids.password}
            className="field__input"
            type="password"
            value={form.password}
            maxLength={200}
            autoComplete="new-password"
            aria-invalid={errorOf('password') ? true : undefined}
            aria-describedby={`${ids.password}-hint`}
            onChange={(e) => onEdit('password', e.target.value)}
            onBlur={() => touch('password')}
          />
        </WizardField>
        <WizardField inputId={ids.expiry} label="Expiry Date" mark="optional" hint="The link stops working after this" error={errorOf('expiryDate')}>
          <input
            id={ids.expiry}
            className="field__input"
            type="datetime-local"
            value={form.expiryDate}
            min={toDateTimeLocal(now)}
            aria-invalid={errorOf('expiryDate') ? true : undefined}
            aria-describedby={`${ids.expiry}-hint`}
            onChange={(e) => onEdit('expiryDate', e.target.value)}
            onBlur={() => touch('expiryDate')}
          />
        </WizardField>
      </div>

      {(form.password !== '' || expiryBadge) && (
        <div className="badge-row" role="group" aria-label="Access">
          {form.password !== '' && (
            <span className="status-badge">
              <LockIcon size={14} />
              Password Protected
            </span>
          )}
          {expiryBadge && (
            <span className="status-badge">
              <CalendarIcon size={14} />
              {expiryBadge}
            </span>
          )}
        </div>
      )}

      <WizardActions onBack={onBack} label="Configure Features" disabled={!validation.canContinue} />
    </form>
  );
}
