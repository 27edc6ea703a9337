import { useEffect, useId, useState } from 'react';
import { UPLOAD_LIMITS } from '@dropsite/shared';
import { ArrowRightIcon, LockIcon } from '../components/icons.tsx';
import { formatExpiryBadge, toDateTimeLocal, validateDetails } from './details-validation.ts';
import { ArrowLeftIcon, CalendarIcon } from './wizard-icons.tsx';
import type { TWizardForm } from './wizard-state.ts';

type TDetailsField = 'title' | 'description' | 'authorName' | 'password' | 'expiryDate';

interface TDetailsStepProps {
  form: TWizardForm;
  onEdit: (field: TDetailsField, value: string) => void;
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

/** Step 3: what visitors read, and how the site is protected. */
export function DetailsStep({ form, onEdit, onBack, onContinue }: TDetailsStepProps) {
  const now = useNow();
  const [touched, setTouched] = useState<Partial<Record<TDetailsField, boolean>>>({});
  const validation = validateDetails(form, now);
  const ids = { title: useId(), description: useId(), author: useId(), password: useId(), expiry: useId() };
  const expiryBadge = validation.expiryDate ? null : formatExpiryBadge(form.expiryDate);
  const touch = (field: TDetailsField) => setTouched((t) => ({ ...t, [field]: true }));
  const errorOf = (field: 'title' | 'description' | 'expiryDate') => (touched[field] || (field === 'expiryDate' && form.expiryDate !== '') ? validation[field] : null);

  return (
    <form
      className="wizard-step details-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (validation.canContinue) onContinue();
        else setTouched({ title: true, description: true, expiryDate: true });
      }}
    >
      <div className="field">
        <label className="field__label" htmlFor={ids.title}>
          Site Title <span className="field__required">Required</span>
        </label>
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
        {errorOf('title') && (
          <p className="field__error" id={`${ids.title}-error`}>
            {errorOf('title')}
          </p>
        )}
      </div>

      <div className="field">
        <label className="field__label" htmlFor={ids.description}>
          Description <span className="field__required">Required</span>
        </label>
        <textarea
          id={ids.description}
          className="field__input field__input--area"
          value={form.description}
          rows={3}
          maxLength={UPLOAD_LIMITS.maxDescriptionLength}
          required
          aria-invalid={errorOf('description') ? true : undefined}
          aria-describedby={errorOf('description') ? `${ids.description}-error` : undefined}
          placeholder="A line or two your visitors read under the title"
          onChange={(e) => onEdit('description', e.target.value)}
          onBlur={() => touch('description')}
        />
        {errorOf('description') && (
          <p className="field__error" id={`${ids.description}-error`}>
            {errorOf('description')}
          </p>
        )}
      </div>

      <div className="field">
        <label className="field__label" htmlFor={ids.author}>
          Author Name <span className="field__optional">Optional</span>
        </label>
        <input
          id={ids.author}
          className="field__input"
          value={form.authorName}
          maxLength={UPLOAD_LIMITS.maxAuthorNameLength}
          autoComplete="name"
          placeholder="Shown as ‘By …’ under the title"
          onChange={(e) => onEdit('authorName', e.target.value)}
        />
      </div>

      <div className="field-row">
        <div className="field">
          <label className="field__label" htmlFor={ids.password}>
            Password Protection <span className="field__optional">Optional</span>
          </label>
          <input
            id={ids.password}
            className="field__input"
            type="password"
            value={form.password}
            maxLength={200}
            autoComplete="new-password"
            aria-describedby={`${ids.password}-hint`}
            onChange={(e) => onEdit('password', e.target.value)}
          />
          <p className="field__hint" id={`${ids.password}-hint`}>
            Leave empty for public access
          </p>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.expiry}>
            Expiry Date <span className="field__optional">Optional</span>
          </label>
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
          <p className={errorOf('expiryDate') ? 'field__error' : 'field__hint'} id={`${ids.expiry}-hint`}>
            {errorOf('expiryDate') ?? 'The link stops working after this'}
          </p>
        </div>
      </div>

      {(form.password !== '' || expiryBadge) && (
        <div className="badge-row" aria-label="Access">
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

      <div className="wizard-actions">
        <button type="button" className="button button--secondary" onClick={onBack}>
          <ArrowLeftIcon size={18} />
          Back
        </button>
        <button type="submit" className="button button--primary" disabled={!validation.canContinue}>
          Configure Features
          <ArrowRightIcon size={18} />
        </button>
      </div>
    </form>
  );
}
