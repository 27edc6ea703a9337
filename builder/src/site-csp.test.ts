import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes, scriptHash } from './site-csp.ts';

const sha = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

describe('inline script hashes of a rendered page', () => {
  it('names every script a browser runs, once each, and skips bundles and data blocks', () => {
    const html = [
      '<script>a()</script>',
      '<script type="module">b()</script>',
      "<SCRIPT type='text/javascript'>c()</SCRIPT >",
      '<script src="/_astro/x.js"></script>',
      '<script type="module" src="/_astro/y.js"></script>',
      '<script type="application/json" data-layout-labels>{"a":1}</script>',
      '<script data-project-id="p">a()</script>',
    ].join('');
    expect(inlineScriptHashes(html)).toEqual([sha('a()'), sha('b()'), sha('c()')]);
  });

  it('hashes the text as the browser sees it, newlines normalised', () => {
    expect(inlineScriptHashes('<script>x()\r\ny()\rz()</script>')).toEqual([sha('x()\ny()\nz()')]);
    expect(scriptHash('')).toBe('sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
  });
});
