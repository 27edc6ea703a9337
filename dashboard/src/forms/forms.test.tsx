import { describe, expect, it } from 'vitest';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { load } from 'cheerio';
import { ContactForm } from './contact-form.tsx';
import { FeedbackForm } from './feedback-form.tsx';
import { NewsletterForm } from './newsletter-form.tsx';
import { SalesDialog } from './sales-form.tsx';

const render = (element: ReactElement) => load(renderToStaticMarkup(element));
type TPage = ReturnType<typeof render>;
const labelled = ($: TPage, label: string) => $(`#${$(`label:contains("${label}")`).attr('for')}`);

function expectHoneypot($: TPage) {
  const trap = $('input[name="website"]');
  expect(trap).toHaveLength(1);
  expect(trap.attr('tabindex')).toBe('-1');
  expect(trap.attr('autocomplete')).toBe('off');
  expect(trap.closest('[aria-hidden="true"]')).toHaveLength(1);
}

describe('the public forms, prerendered', () => {
  it('Contact posts to /api/contact without JavaScript, every field labelled, required and bounded', () => {
    const $ = render(<ContactForm />);
    const form = $('form[data-form="contact"]');
    expect(form.attr('method')).toBe('post');
    expect(form.attr('action')).toBe('/api/contact');
    expect(form.closest('[data-island="forms"]')).toHaveLength(1);
    expect(form.text()).toContain('within 24 hours');
    for (const [label, name, max] of [
      ['Full name', 'name', '100'],
      ['Email address', 'email', '254'],
      ['Subject', 'subject', '150'],
      ['Message', 'message', '5000'],
    ] as const) {
      const control = labelled($, label);
      expect(control.attr('name'), label).toBe(name);
      expect(control.attr('required'), label).toBeDefined();
      expect(control.attr('maxlength'), label).toBe(max);
      expect($(`#${control.attr('aria-describedby')}`).attr('data-error-for')).toBe(name);
    }
    expect(labelled($, 'Email address').attr('type')).toBe('email');
    expect(labelled($, 'Message').is('textarea')).toBe(true);
    expect($('[role="status"][aria-live="polite"]')).toHaveLength(1);
    expect($('[role="alert"][data-form-error]').attr('hidden')).toBeDefined();
    expectHoneypot($);
    const done = $('[data-form-done]');
    expect(done.attr('hidden')).toBeDefined();
    expect(done.find('h3').text()).toBe('Message sent');
    expect(done.find('button[data-form-again]').text()).toBe('Send another message');
  });

  it('Feedback needs only the text; name, email, rating and subject are optional; the rating is a radio group of 5 stars', () => {
    const $ = render(<FeedbackForm />);
    expect($('form').attr('action')).toBe('/api/feedback');
    expect(
      $('[required]')
        .map((_, el) => $(el).attr('name'))
        .get(),
    ).toEqual(['feedback']);
    const stars = $('fieldset.form-rating input[type="radio"][name="rating"]');
    expect(stars.map((_, el) => $(el).attr('value')).get()).toEqual(['1', '2', '3', '4', '5']);
    expect($('fieldset.form-rating legend').text()).toBe('Rating (optional)');
    expect(labelled($, '3 stars').attr('value')).toBe('3');
    expect(labelled($, 'Subject').attr('name')).toBe('subject');
    expect($('[data-form-done] h2').text()).toBe('Thank you for your feedback!');
    expectHoneypot($);
  });

  it('Contact Sales sits in a dialog with a close button and asks for name, email, company and message', () => {
    const $ = render(<SalesDialog />);
    const dialog = $('dialog#sales-dialog');
    expect(dialog.attr('aria-labelledby')).toBe('sales-dialog-title');
    expect($('#sales-dialog-title').text()).toBe('Contact Sales');
    expect(dialog.find('button[aria-label="Close"]').attr('command')).toBe('close');
    expect(dialog.find('form').attr('action')).toBe('/api/sales');
    expect(
      dialog
        .find('[required]')
        .map((_, el) => $(el).attr('name'))
        .get(),
    ).toEqual(['name', 'email', 'company', 'message']);
    expect(dialog.find('[data-form-done]').text()).toContain('Our sales team will contact you within 24 hours.');
    expectHoneypot($);
  });

  it('the newsletter box has one labelled email field and says a link confirms', () => {
    const $ = render(<NewsletterForm />);
    expect($('form').attr('action')).toBe('/api/newsletter');
    expect(labelled($, 'Email for product news').attr('type')).toBe('email');
    expect($('form').text()).toContain('We email you a link to confirm');
    expect($('[data-form-done]').text()).toContain('Check your inbox');
    expectHoneypot($);
  });
});
