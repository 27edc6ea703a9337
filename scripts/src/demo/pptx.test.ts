import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makePptx } from './pptx.ts';

const hasSoffice = spawnSync('soffice', ['--version'], { encoding: 'utf8', timeout: 60_000 }).status === 0;
if (!hasSoffice) {
  if (process.env.CI === 'true') throw new Error('soffice (LibreOffice) is required in CI');
  process.stdout.write('pptx.test.ts: soffice is not installed; the conversion test is skipped\n');
}

describe('the compose check’s deck', () => {
  it('is a PowerPoint package: content types, the presentation and one slide per title', () => {
    const deck = makePptx(['One', 'Two & three']);
    expect(deck.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
    const text = deck.toString('latin1');
    for (const part of ['[Content_Types].xml', 'ppt/presentation.xml', 'ppt/slides/slide1.xml', 'ppt/slides/slide2.xml', 'ppt/slideMasters/slideMaster1.xml']) {
      expect(text).toContain(part);
    }
    expect(text).toContain('Two &amp; three');
  });

  it.skipIf(!hasSoffice)('converts with LibreOffice to a PDF of one page per slide', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dropsite-deck-'));
    try {
      writeFileSync(path.join(dir, 'deck.pptx'), makePptx(['Compose check', 'Converted']));
      const result = spawnSync(
        'soffice',
        [
          `-env:UserInstallation=${pathToFileURL(path.join(dir, 'profile')).href}`,
          '--headless',
          '--norestore',
          '--convert-to',
          'pdf',
          '--outdir',
          dir,
          path.join(dir, 'deck.pptx'),
        ],
        { encoding: 'utf8', timeout: 120_000, env: { ...process.env, HOME: dir } },
      );
      expect(result.status, result.stderr).toBe(0);
      const pdf = readFileSync(path.join(dir, 'deck.pdf')).toString('latin1');
      expect(pdf.startsWith('%PDF-')).toBe(true);
      expect(pdf.match(/\/Type\s*\/Page(?!s)/g)).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
