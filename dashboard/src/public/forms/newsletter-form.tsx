/**
 * The landing footer's newsletter box: one email field. Double opt-in: the answer is always 'Check
 * your inbox to confirm', and only the emailed link subscribes.
 */
import { FORM_LIMITS } from '@dropsite/shared/browser/form-rules';
import { Field, FormDone, FormMessages, PublicForm, type THeadingLevel } from './form-parts.tsx';

export function NewsletterForm({ idPrefix = 'newsletter', headingLevel = 'h3' }: { idPrefix?: string; headingLevel?: THeadingLevel }) {
  return (
    <div className="form-island form-island--compact" data-island="forms">
      <PublicForm kind="newsletter" idPrefix={idPrefix}>
        <div className="public-form__inline">
          <Field
            idPrefix={idPrefix}
            name="email"
            label="Email address"
            type="email"
            maxLength={FORM_LIMITS.email}
            autoComplete="email"
            placeholder="you@example.com"
            isLabelHidden
          />
          <button type="submit" className="button button--primary public-form__submit" data-form-submit>
            Subscribe
          </button>
        </div>
        <FormMessages />
        <p className="public-form__fineprint">We email you a link to confirm. Every message has a one-click unsubscribe.</p>
      </PublicForm>
      <FormDone kind="newsletter" headingLevel={headingLevel} />
    </div>
  );
}
