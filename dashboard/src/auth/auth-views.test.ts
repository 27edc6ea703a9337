import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { load } from 'cheerio';
import { AuthForm, type TAuthView } from './auth-form.tsx';

const render = (element: Parameters<typeof renderToStaticMarkup>[0]) => load(renderToStaticMarkup(element));
const form = (view: TAuthView) => render(createElement(AuthForm, { initialView: view, returnTo: '/', headingId: 'h', headingLevel: 'h1' }));
const labelled = ($: ReturnType<typeof load>, label: string) => $(`#${$(`label:contains("${label}")`).attr('for')}`);

describe('the sign-in form', () => {
  it('signs in with an address and the current password, offers the reset and the email link', () => {
    const $ = form('sign-in');
    expect($('h1#h').text()).toBe('Welcome back');
    expect(labelled($, 'Email address').attr('autocomplete')).toBe('username');
    expect(labelled($, 'Password').attr('autocomplete')).toBe('current-password');
    expect(labelled($, 'Password').attr('type')).toBe('password');
    expect($('button:contains("Forgot password?")').attr('type')).toBe('button');
    expect($('button:contains("Email me a sign-in link")')).toHaveLength(1);
    // Empty, the form cannot be sent.
    expect($('button[type=submit]').text()).toBe('Sign In');
    expect($('button[type=submit]').attr('disabled')).toBeDefined();
  });

  it('signs up with a name, an address and a new password of at least 8 characters', () => {
    const $ = form('sign-up');
    expect($('h1').text()).toBe('Create your free account');
    expect(labelled($, 'Your name').attr('autocomplete')).toBe('name');
    expect(labelled($, 'Email address').attr('autocomplete')).toBe('email');
    const password = labelled($, 'Password');
    expect(password.attr('autocomplete')).toBe('new-password');
    expect(password.attr('minlength')).toBe('8');
    expect($(`#${password.attr('aria-describedby')}`).text()).toBe('At least 8 characters.');
    expect($('button[type=submit]').text()).toBe('Create Account');
    expect($('button:contains("Sign in")')).toHaveLength(1);
  });

  it('asks only for the address to send a sign-in link or a reset link', () => {
    for (const [view, submit] of [
      ['email-link', 'Email Me a Link'],
      ['forgot', 'Send Reset Link'],
    ] as const) {
      const $ = form(view);
      expect($('input')).toHaveLength(1);
      expect($('button[type=submit]').text()).toBe(submit);
      expect($('button:contains("Back to sign in")')).toHaveLength(1);
    }
  });
});
