import { describe, expect, it } from 'vitest';
import { resolvePage } from './routes.ts';

describe('resolvePage', () => {
  it('shows the landing page at the root', () => {
    expect(resolvePage('/')).toBe('landing');
    expect(resolvePage('/index.html')).toBe('landing');
  });

  it('shows the not-found page for any path the app does not have yet', () => {
    expect(resolvePage('/nope')).toBe('not-found');
    expect(resolvePage('/templates/')).toBe('not-found');
  });
});
