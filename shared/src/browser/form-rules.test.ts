import { describe, expect, it } from 'vitest';
import { ZContactRequestSchema, ZFeedbackRequestSchema } from '../forms.ts';
import { checkForm, FORM_LIMITS } from './form-rules.ts';

describe('the public forms check', () => {
  it('asks for every required field of Contact, in the form’s order, with the spec’s email rule', () => {
    expect(checkForm('contact', {})).toEqual([
      { field: 'name', message: 'Please enter your name.', isTooLong: false },
      { field: 'email', message: 'Please enter your email address.', isTooLong: false },
      { field: 'subject', message: 'Please enter a subject.', isTooLong: false },
      { field: 'message', message: 'Please enter your message.', isTooLong: false },
    ]);
    expect(checkForm('contact', { name: 'Ada', email: 'ada@studio', subject: 'Hi', message: 'Hello' })).toEqual([
      { field: 'email', message: 'Please enter a valid email address.', isTooLong: false },
    ]);
    expect(checkForm('contact', { name: ' Ada ', email: 'ada@studio.example', subject: 'Hi', message: 'Hello' })).toEqual([]);
  });

  it('needs only the text on Feedback; a rating, if any, is 1 to 5 stars; an email, if any, is an address', () => {
    expect(checkForm('feedback', { feedback: 'Great' })).toEqual([]);
    expect(checkForm('feedback', { feedback: '  ' }).map((p) => p.message)).toEqual(['Please tell us your feedback.']);
    expect(checkForm('feedback', { feedback: 'Great', rating: '0' }).map((p) => p.message)).toEqual(['Choose a rating from 1 to 5 stars.']);
    expect(checkForm('feedback', { feedback: 'Great', rating: '5', email: 'x' }).map((p) => p.field)).toEqual(['email']);
  });

  it('names the field and its limit when a value is too long', () => {
    expect(checkForm('sales', { name: 'Ada', email: 'ada@studio.example', company: 'c'.repeat(FORM_LIMITS.company + 1), message: 'm'.repeat(FORM_LIMITS.message + 1) })).toEqual([
      { field: 'company', message: 'Company name must be at most 120 characters.', isTooLong: true },
      { field: 'message', message: 'Message must be at most 5,000 characters.', isTooLong: true },
    ]);
  });

  it('says what the server says: the same first message for the same body', () => {
    const bodies = [
      { name: '', email: 'ada@studio.example', subject: 'Hi', message: 'Hello' },
      { name: 'Ada', email: 'nope', subject: 'Hi', message: 'Hello' },
      { name: 'Ada', email: 'ada@studio.example', subject: 's'.repeat(151), message: 'Hello' },
    ];
    for (const body of bodies) {
      const server = ZContactRequestSchema.safeParse(body);
      expect(server.success).toBe(false);
      expect(server.error?.issues[0]?.message).toBe(checkForm('contact', body)[0]?.message);
    }
    const feedback = ZFeedbackRequestSchema.parse({ feedback: ' Great ', rating: '4', email: '', subject: 'Request Template' });
    expect(feedback).toMatchObject({ feedback: 'Great', rating: 4, email: '', name: '', subject: 'Request Template' });
  });
});
