/**
 * The public forms' requests and replies (spec 'pages-dashboard-billing' 2 and 5; decisions 6: the
 * messages are stored and emailed to the operator). The fields, limits and messages come from
 * browser/form-rules.ts, which the forms' page script checks with too, so both say the same thing.
 * An empty optional field (a classic form post sends '') counts as absent.
 */
import { z } from 'zod';
import {
  FEEDBACK_RATING_MAX,
  FEEDBACK_RATING_MIN,
  FORM_FIELDS,
  HONEYPOT_FIELD,
  INVALID_EMAIL_MESSAGE,
  INVALID_RATING_MESSAGE,
  isFormEmail,
  tooLongMessage,
  type TFormField,
  type TFormKind,
} from './browser/form-rules.ts';

export { FORM_CONFIRMATIONS, HONEYPOT_FIELD, type TFormKind } from './browser/form-rules.ts';

function fieldOf(kind: TFormKind, name: string): TFormField {
  const field = FORM_FIELDS[kind].find((f) => f.name === name);
  if (!field) throw new Error(`No field ${name} on the ${kind} form`);
  return field;
}

function requiredText(kind: TFormKind, name: string) {
  const field = fieldOf(kind, name);
  return z
    .string({ error: field.requiredMessage })
    .trim()
    .min(1, field.requiredMessage)
    .max(field.max ?? Number.MAX_SAFE_INTEGER, tooLongMessage(field));
}

function optionalText(kind: TFormKind, name: string) {
  const field = fieldOf(kind, name);
  return z
    .string()
    .trim()
    .max(field.max ?? Number.MAX_SAFE_INTEGER, tooLongMessage(field))
    .optional()
    .transform((v) => v ?? '');
}

function requiredEmail(kind: TFormKind) {
  return requiredText(kind, 'email')
    .refine(isFormEmail, INVALID_EMAIL_MESSAGE)
    .transform((v) => v.toLowerCase());
}

function optionalEmail(kind: TFormKind) {
  return optionalText(kind, 'email')
    .refine((v) => v === '' || isFormEmail(v), INVALID_EMAIL_MESSAGE)
    .transform((v) => v.toLowerCase());
}

/** Any text (or nothing): whatever a bot put in the hidden field. */
const ZHoneypotSchema = z.string().max(10_000).optional();

export const ZContactRequestSchema = z.object({
  name: requiredText('contact', 'name'),
  email: requiredEmail('contact'),
  subject: requiredText('contact', 'subject'),
  message: requiredText('contact', 'message'),
  [HONEYPOT_FIELD]: ZHoneypotSchema,
});
export type TContactRequest = z.infer<typeof ZContactRequestSchema>;

/** The stars as a number (JSON) or a digit (a form post); '' or absent is no rating. */
const ZRatingSchema = z
  .union([z.number(), z.string().trim()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return null;
    const stars = Number(v);
    if (!Number.isInteger(stars) || stars < FEEDBACK_RATING_MIN || stars > FEEDBACK_RATING_MAX) {
      ctx.addIssue({ code: 'custom', message: INVALID_RATING_MESSAGE });
      return z.NEVER;
    }
    return stars;
  });

export const ZFeedbackRequestSchema = z.object({
  name: optionalText('feedback', 'name'),
  email: optionalEmail('feedback'),
  rating: ZRatingSchema,
  /** Filled by 'Request Template' (/feedback?subject=Request%20Template). */
  subject: optionalText('feedback', 'subject'),
  feedback: requiredText('feedback', 'feedback'),
  [HONEYPOT_FIELD]: ZHoneypotSchema,
});
export type TFeedbackRequest = z.infer<typeof ZFeedbackRequestSchema>;

export const ZSalesRequestSchema = z.object({
  name: requiredText('sales', 'name'),
  email: requiredEmail('sales'),
  company: requiredText('sales', 'company'),
  message: requiredText('sales', 'message'),
  [HONEYPOT_FIELD]: ZHoneypotSchema,
});
export type TSalesRequest = z.infer<typeof ZSalesRequestSchema>;

export const ZNewsletterRequestSchema = z.object({
  email: requiredEmail('newsletter'),
  [HONEYPOT_FIELD]: ZHoneypotSchema,
});

/** Every form's answer once it is taken: the confirmation to show. */
export const ZFormReplySchema = z.object({
  success: z.literal(true),
  title: z.string(),
  message: z.string(),
});
export type TFormReply = z.infer<typeof ZFormReplySchema>;
