/**
 * The Feedback page's form (spec 2): optional name and email, an optional 1 to 5 star rating (a
 * radio group: arrow keys choose), the required feedback text, and a subject that 'Request
 * Template' fills (/feedback?subject=Request%20Template, read by the island).
 */
import { FEEDBACK_RATING_MAX, FEEDBACK_RATING_MIN, FORM_LIMITS } from '@dropsite/shared/browser/form-rules';
import { RatingStarIcon } from '../ui/icons.tsx';
import { Field, FormDone, FormSubmit, PublicForm, SenderFields, type THeadingLevel } from './form-parts.tsx';

const STARS = Array.from({ length: FEEDBACK_RATING_MAX - FEEDBACK_RATING_MIN + 1 }, (_, i) => FEEDBACK_RATING_MIN + i);

function StarRating({ idPrefix }: { idPrefix: string }) {
  return (
    <fieldset className="form-rating" aria-describedby={`${idPrefix}-rating-error`}>
      <legend className="form-field__label">
        Rating<span className="form-field__optional"> (optional)</span>
      </legend>
      <div className="form-rating__stars">
        {STARS.map((stars) => (
          <span key={stars} className="form-rating__star">
            <input id={`${idPrefix}-rating-${stars}`} type="radio" name="rating" value={stars} className="form-rating__input ui-cover-input" />
            <label htmlFor={`${idPrefix}-rating-${stars}`} className="form-rating__label ui-tile" title={`${stars} of ${FEEDBACK_RATING_MAX}`}>
              <RatingStarIcon />
              <span className="form-visually-hidden">
                {stars} {stars === 1 ? 'star' : 'stars'}
              </span>
            </label>
          </span>
        ))}
      </div>
      <p id={`${idPrefix}-rating-error`} className="form-field__error" data-error-for="rating" hidden />
    </fieldset>
  );
}

export function FeedbackForm({ idPrefix = 'feedback', headingLevel = 'h2' }: { idPrefix?: string; headingLevel?: THeadingLevel }) {
  return (
    <div className="form-island" data-island="forms">
      <PublicForm kind="feedback" idPrefix={idPrefix}>
        <SenderFields idPrefix={idPrefix} nameLabel="Name" isOptional />
        <StarRating idPrefix={idPrefix} />
        <Field idPrefix={idPrefix} name="subject" label="Subject" isOptional maxLength={FORM_LIMITS.subject} />
        <Field idPrefix={idPrefix} name="feedback" label="Your feedback" maxLength={FORM_LIMITS.message} rows={6} />
        <FormSubmit label="Send feedback" />
      </PublicForm>
      <FormDone kind="feedback" headingLevel={headingLevel} againLabel="Send more feedback" />
    </div>
  );
}
