import { describe, expect, it } from 'vitest';
import { toSafeReturnPath } from './accounts.ts';

describe('where a finished sign-in returns to', () => {
  it('keeps a path of our own origin with its query and fragment', () => {
    expect(toSafeReturnPath('/dashboard')).toBe('/dashboard');
    expect(toSafeReturnPath('/dashboard/projects/p_1?tab=files#f2')).toBe('/dashboard/projects/p_1?tab=files#f2');
    expect(toSafeReturnPath('/')).toBe('/');
  });

  it('refuses anything that could leave the origin', () => {
    for (const value of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      'dashboard',
      '/%0a//evil',
      '/a\u0000b',
      '\t/x',
      '',
      null,
      undefined,
    ]) {
      const result = toSafeReturnPath(value);
      if (result !== null) expect(new URL(result, 'https://dropsite.test').origin).toBe('https://dropsite.test');
      if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\') || value.includes('\u0000')) expect(result).toBeNull();
    }
  });

  it('never returns to a page that would start the flow again', () => {
    expect(toSafeReturnPath('/sign-in?mode=sign-up')).toBeNull();
    expect(toSafeReturnPath('/sign-in/')).toBeNull();
    expect(toSafeReturnPath('/reset-password?token=x')).toBeNull();
    expect(toSafeReturnPath('/verify-email')).toBeNull();
    expect(toSafeReturnPath('/undo-email-change?token=x')).toBeNull();
  });
});
