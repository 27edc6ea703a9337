import { describe, expect, it } from 'vitest';
import type { Request } from 'express';
import { cookieName, readCookie } from './cookies.ts';

const requestWith = (cookie: string | undefined) => ({ headers: cookie === undefined ? {} : { cookie } }) as unknown as Request;

describe('identity cookies', () => {
  it('carry the __Host- prefix on https, so no subdomain or plain-http page can plant them', () => {
    expect(cookieName({ publicUrl: 'https://drop.example' }, 'dropsite_vid')).toBe('__Host-dropsite_vid');
    expect(cookieName({ publicUrl: 'http://localhost:3000' }, 'dropsite_vid')).toBe('dropsite_vid');
  });

  it('are read exactly by name: first of duplicates, quotes removed, nothing from oversized headers', () => {
    expect(readCookie(requestWith('a=1; dropsite_vid=abc.def; b=2'), 'dropsite_vid')).toBe('abc.def');
    expect(readCookie(requestWith('xdropsite_vid=nope; dropsite_vid="q"'), 'dropsite_vid')).toBe('q');
    expect(readCookie(requestWith('dropsite_vid=first; dropsite_vid=second'), 'dropsite_vid')).toBe('first');
    expect(readCookie(requestWith('other=1'), 'dropsite_vid')).toBeUndefined();
    expect(readCookie(requestWith(undefined), 'dropsite_vid')).toBeUndefined();
    expect(readCookie(requestWith(`dropsite_vid=x; pad=${'p'.repeat(20_000)}`), 'dropsite_vid')).toBeUndefined();
  });
});
