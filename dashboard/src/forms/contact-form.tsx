/** The Contact page's form (spec 2): full name, email, subject and message, all required; a reply within 24 hours. */
import { FORM_LIMITS } from '@dropsite/shared/browser/form-rules';
import { Field, FormDone, FormSubmit, PublicForm, SenderFields, type THeadingLevel } from './form-parts.tsx';

export function ContactForm({ idPrefix = 'contact', headingLevel = 'h3' }: { idPrefix?: string; headingLevel?: THeadingLevel }) {
  return (
    <div className="form-island" data-island="forms">
      <PublicForm kind="contact" idPrefix={idPrefix}>
        <p className="public-form__intro">All fields are required. We reply by email within 24 hours.</p>
        <SenderFields idPrefix={idPrefix} nameLabel="Full name" />
        <Field idPrefix={idPrefix} name="subject" label="Subject" maxLength={FORM_LIMITS.subject} />
        <Field idPrefix={idPrefix} name="message" label="Message" maxLength={FORM_LIMITS.message} rows={6} />
        <FormSubmit label="Send message" />
      </PublicForm>
      <FormDone kind="contact" headingLevel={headingLevel} againLabel="Send another message" />
    </div>
  );
}
