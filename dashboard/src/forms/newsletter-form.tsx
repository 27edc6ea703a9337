/**
 * The landing footer's newsletter box: one email field. Double opt-in: the answer is always 'Check
 * your inbox to confirm', and only the emailed link subscribes. On a prerendered page (never
 * hydrated) the page's island loader enhances it; where React renders or hydrates it (the landing
 * page, the app's pages) its effect loads the same forms island. Either way it posts without JavaScript.
 */
import { useEffect, useRef } from 'react';
import { FORM_LIMITS } from '@dropsite/shared/browser/form-rules';
import { Field, FormDone, FormMessages, PublicForm, type THeadingLevel } from './form-parts.tsx';
import '../ui/field-with-button.css';

export function NewsletterForm({ idPrefix = 'newsletter', headingLevel = 'h3' }: { idPrefix?: string; headingLevel?: THeadingLevel }) {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = root.current;
    if (!element) return;
    // mount() enhances a form once, so a page whose loader already did it is left as it is.
    void import('./form-island.ts').then((island) => island.mount(element));
  }, []);
  return (
    <div ref={root} className="form-island form-island--compact" data-island="forms">
      <PublicForm kind="newsletter" idPrefix={idPrefix}>
        <div className="public-form__inline field-with-button">
          <Field
            idPrefix={idPrefix}
            name="email"
            label="Email for product news"
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
