/** The Contact page's form (spec 2): full name, email, subject and message, all required; a reply within 24 hours. */
import { FORM_LIMITS } from '@dropsite/shared/browser/form-rules';
import { Field, FormDone, FormMessages, PublicForm, type THeadingLevel } from './form-parts.tsx';

export function ContactForm({ idPrefix = 'contact', headingLevel = 'h3' }: { idPrefix?: string; headingLevel?: THeadingLevel }) {
  return (
    <div className="form-island" data-island="forms">
      <PublicForm kind="contact" idPrefix={idPrefix}>
        <p className="public-form__intro">All fields are required. We reply by email within 24 hours.</p>
        <div className="public-form__row">
          <Field idPrefix={idPrefix} name="name" label="Full name" maxLength={FORM_LIMITS.name} autoComplete="name" />
          <Field idPrefix={idPrefix} name="email" label="Email address" type="email" maxLength={FORM_LIMITS.email} autoComplete="email" placeholder="you@example.com" />
        </div>
        <Field idPrefix={idPrefix} name="subject" label="Subject" maxLength={FORM_LIMITS.subject} />
        <Field idPrefix={idPrefix} name="message" label="Message" maxLength={FORM_LIMITS.message} rows={6} />
        <FormMessages />
        <button type="submit" className="button button--primary button--large public-form__submit" data-form-submit>
          Send message
        </button>
      </PublicForm>
      <FormDone kind="contact" headingLevel={headingLevel} againLabel="Send another message" />
    </div>
  );
}
