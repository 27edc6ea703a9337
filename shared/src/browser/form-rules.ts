/**
 * The public forms (contact, feedback, Contact Sales, newsletter): their fields, limits, messages and
 * confirmation texts, with one pure check the page script and the server's schemas both follow. No
 * zod here: the forms' script on a content page must stay a few KB.
 */

export const FORM_KINDS = ['contact', 'feedback', 'sales', 'newsletter'] as const;
export type TFormKind = (typeof FORM_KINDS)[number];

/** Longest values, in characters (UTF-16 units, as a browser's maxlength counts them). Longer ones are refused with 413. */
export const FORM_LIMITS = {
  name: 100,
  email: 254,
  subject: 150,
  company: 120,
  message: 5000,
} as const;

/** Ratings a feedback may give (stars); the rating itself is optional. */
export const FEEDBACK_RATING_MIN = 1;
export const FEEDBACK_RATING_MAX = 5;

/** The field a person never sees: a form that fills it is a bot's, answered as sent and otherwise ignored. */
export const HONEYPOT_FIELD = 'website';

/** What a filled field must be. */
type TFieldKind = 'text' | 'email' | 'rating';

export interface TFormField {
  name: string;
  kind: TFieldKind;
  required: boolean;
  /** Most characters; absent for the rating. */
  max?: number;
  /** The field as a sentence starts with it, for 'X must be at most N characters'. */
  label: string;
  /** Shown when a required field is empty. */
  requiredMessage: string;
}

const name = (required: boolean): TFormField => ({ name: 'name', kind: 'text', required, max: FORM_LIMITS.name, label: 'Name', requiredMessage: 'Please enter your name.' });
const email = (required: boolean): TFormField => ({
  name: 'email',
  kind: 'email',
  required,
  max: FORM_LIMITS.email,
  label: 'Email address',
  requiredMessage: 'Please enter your email address.',
});
const message = (field: string, label: string, requiredMessage: string): TFormField => ({
  name: field,
  kind: 'text',
  required: true,
  max: FORM_LIMITS.message,
  label,
  requiredMessage,
});

/** Each form's fields, in the order they are shown (spec 2 and 5: only the feedback text is required on Feedback). */
export const FORM_FIELDS: Record<TFormKind, readonly TFormField[]> = {
  contact: [
    name(true),
    email(true),
    { name: 'subject', kind: 'text', required: true, max: FORM_LIMITS.subject, label: 'Subject', requiredMessage: 'Please enter a subject.' },
    message('message', 'Message', 'Please enter your message.'),
  ],
  feedback: [
    name(false),
    email(false),
    { name: 'rating', kind: 'rating', required: false, label: 'Rating', requiredMessage: 'Please choose a rating.' },
    { name: 'subject', kind: 'text', required: false, max: FORM_LIMITS.subject, label: 'Subject', requiredMessage: 'Please enter a subject.' },
    message('feedback', 'Feedback', 'Please tell us your feedback.'),
  ],
  sales: [
    name(true),
    email(true),
    { name: 'company', kind: 'text', required: true, max: FORM_LIMITS.company, label: 'Company name', requiredMessage: 'Please enter your company name.' },
    message('message', 'Message', 'Please enter your message.'),
  ],
  newsletter: [email(true)],
};

export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address.';
export const INVALID_RATING_MESSAGE = `Choose a rating from ${FEEDBACK_RATING_MIN} to ${FEEDBACK_RATING_MAX} stars.`;

/** 'Message must be at most 5,000 characters.' */
export function tooLongMessage(field: Pick<TFormField, 'label' | 'max'>): string {
  return `${field.label} must be at most ${(field.max ?? 0).toLocaleString('en-US')} characters.`;
}

/** Text, '@', text, '.', text, with no spaces (the product's one email rule), at most 254 characters. */
export function isFormEmail(text: string): boolean {
  return text.length <= FORM_LIMITS.email && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text);
}

export interface TFieldProblem {
  field: string;
  message: string;
  /** Too long (the server answers 413), rather than missing or malformed (400). */
  isTooLong: boolean;
}

/** The first problem of each field, in the form's order; an empty list when the form may be sent. Values are trimmed first. */
export function checkForm(kind: TFormKind, values: Readonly<Record<string, string | undefined>>): TFieldProblem[] {
  const problems: TFieldProblem[] = [];
  for (const field of FORM_FIELDS[kind]) {
    const value = (values[field.name] ?? '').trim();
    const problem = checkField(field, value);
    if (problem) problems.push({ field: field.name, ...problem });
  }
  return problems;
}

function checkField(field: TFormField, value: string): { message: string; isTooLong: boolean } | null {
  if (value === '') return field.required ? { message: field.requiredMessage, isTooLong: false } : null;
  if (field.max !== undefined && value.length > field.max) return { message: tooLongMessage(field), isTooLong: true };
  if (field.kind === 'email' && !isFormEmail(value)) return { message: INVALID_EMAIL_MESSAGE, isTooLong: false };
  if (field.kind === 'rating') {
    const stars = Number(value);
    if (!Number.isInteger(stars) || stars < FEEDBACK_RATING_MIN || stars > FEEDBACK_RATING_MAX) return { message: INVALID_RATING_MESSAGE, isTooLong: false };
  }
  return null;
}

/** What each form says once it is sent (spec 2: a reply within 24 hours; the sales team within 24 hours). */
export const FORM_CONFIRMATIONS: Record<TFormKind, { title: string; body: string }> = {
  contact: { title: 'Message sent', body: 'Thank you for reaching out. We’ll get back to you within 24 hours.' },
  feedback: { title: 'Thank you for your feedback!', body: 'Every note is read by the team and helps shape what we build next.' },
  sales: { title: 'Thank you!', body: 'Our sales team will contact you within 24 hours.' },
  newsletter: { title: 'Check your inbox', body: 'We sent you a link to confirm your subscription. Until you confirm, we send nothing else.' },
};

/** Where each form is sent. */
export const FORM_ENDPOINTS: Record<TFormKind, string> = {
  contact: '/api/contact',
  feedback: '/api/feedback',
  sales: '/api/sales',
  newsletter: '/api/newsletter',
};

/** The Contact Sales dialog closes (and its form clears) this long after the confirmation shows. */
export const SALES_DIALOG_CLOSE_MS = 3000;
