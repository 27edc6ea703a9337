/**
 * Contact Sales (spec 2, payment page): full name, email, company and message, all required. Once
 * sent it confirms (the sales team contacts you within 24 hours), then the dialog closes after 3
 * seconds and the form is cleared (the island does both).
 */
import { FORM_LIMITS } from '@dropsite/shared/browser/form-rules';
import { Field, FormDone, FormSubmit, PublicForm, type THeadingLevel } from './form-parts.tsx';

export function SalesForm({ idPrefix = 'sales', headingLevel = 'h3' }: { idPrefix?: string; headingLevel?: THeadingLevel }) {
  return (
    <div className="form-island" data-island="forms">
      <PublicForm kind="sales" idPrefix={idPrefix}>
        <Field idPrefix={idPrefix} name="name" label="Full name" maxLength={FORM_LIMITS.name} autoComplete="name" />
        <Field idPrefix={idPrefix} name="email" label="Work email" type="email" maxLength={FORM_LIMITS.email} autoComplete="email" placeholder="you@company.com" />
        <Field idPrefix={idPrefix} name="company" label="Company name" maxLength={FORM_LIMITS.company} autoComplete="organization" />
        <Field
          idPrefix={idPrefix}
          name="message"
          label="Message"
          maxLength={FORM_LIMITS.message}
          rows={4}
          placeholder="Your team, what you deliver, and when you would like to start"
        />
        <FormSubmit label="Contact Sales" />
      </PublicForm>
      <FormDone kind="sales" headingLevel={headingLevel} />
    </div>
  );
}

/**
 * The dialog the payment page's Contact Sales button opens (invoker commands: `commandfor="sales-dialog"
 * command="show-modal"`, so it opens before any script has loaded).
 */
export function SalesDialog({ id = 'sales-dialog' }: { id?: string }) {
  return (
    <dialog id={id} className="sales-form-dialog" aria-labelledby={`${id}-title`}>
      <div className="sales-form-dialog__head">
        <h2 id={`${id}-title`} className="sales-form-dialog__title">
          Contact Sales
        </h2>
        <button type="button" className="quiet-button sales-form-dialog__close" {...{ commandfor: id, command: 'close' }} aria-label="Close">
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <p className="sales-form-dialog__lede">Tell us about your team and what you deliver. Our sales team replies within 24 hours.</p>
      <SalesForm idPrefix={`${id}-sales`} />
    </dialog>
  );
}
