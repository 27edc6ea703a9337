import { describe, expect, it } from 'vitest';
import { toSafeReturnPath } from './account-rules.ts';

describe('a return path never leaves the origin once normalised', () => {
  it.each([
    ['/.//evil.example/x'],
    ['/./\\evil.example'],
    ['/\\evil.example'],
    ['/\\\\evil.example'],
    ['/%2F%2Fevil.example'],
    ['/%2f/evil.example'],
    ['/%5Cevil.example'],
    ['/a/..//evil.example'],
    ['/..//evil.example'],
    ['/.%2F/evil.example'],
    ['/\t/evil.example'],
    ['/\n/evil.example'],
    ['/\r\n//evil.example'],
    ['/ //evil.example'.replace(' ', '\u000b')],
  ])('refuses %j', (value) => {
    expect(toSafeReturnPath(value)).toBeNull();
  });

  it('whatever it returns is a path of this origin that a browser cannot read as another host', () => {
    for (const value of ['/dashboard', '/./dashboard', '/a/../dashboard?x=1#y', '/dashboard//x', '/%2e/dashboard']) {
      const result = toSafeReturnPath(value);
      expect(result).not.toBeNull();
      expect(result).toMatch(/^\/(?![/\\])/);
      expect(new URL(result ?? '', 'https://dropsite.test').origin).toBe('https://dropsite.test');
    }
  });
});
