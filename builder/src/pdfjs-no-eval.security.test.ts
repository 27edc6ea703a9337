/**
 * PDF.js must never turn a PDF's content into JavaScript (the class of CVE-2024-4367). PDF.js 6
 * has no eval path left (PostScript functions compile to WebAssembly or run in an interpreter;
 * the `isEvalSupported` option is gone), so there is nothing to switch off: this guards the
 * bundles the builder (legacy build, in a worker thread) and the site's viewer (build/, in the
 * browser) load, so an upgrade that brings an eval path back fails here and gets the option set.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const root = path.dirname(require.resolve('pdfjs-dist/package.json'));
const BUNDLES = ['legacy/build/pdf.mjs', 'legacy/build/pdf.worker.mjs', 'build/pdf.mjs', 'build/pdf.worker.min.mjs'];
// core-js's globalThis fallback in the legacy build: unreachable where globalThis exists (Node, every browser we serve).
const GLOBAL_THIS_FALLBACK = "Function('return this')()";

describe('PDF.js bundles', () => {
  for (const bundle of BUNDLES) {
    it(`${bundle} has no eval path and no isEvalSupported option`, () => {
      const source = readFileSync(path.join(root, bundle), 'utf8').replaceAll(GLOBAL_THIS_FALLBACK, '');
      expect(source).not.toMatch(/\bnew Function\s*\(/);
      expect(source).not.toMatch(/(?<![\w.$])Function\s*\(\s*['"`]/);
      expect(source).not.toMatch(/(?<![\w.$])eval\s*\(/);
      expect(source).not.toContain('isEvalSupported');
    });
  }
});
