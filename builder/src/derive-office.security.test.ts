/**
 * A document converted for its preview must not be able to pull the server's local files into the
 * public PDF: a Writer section linked to file:///proc/<pid>/environ would otherwise print the
 * builder's database password and storage secret on the preview page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { derivedPdfKey } from '@dropsite/shared';
import { deriveFile, type TDeriveFileOptions } from './derive-file.ts';
import { NO_OFFICE_SANDBOX, OFFICE_SANDBOX_UID, officeSandboxArgs } from './derive-office.ts';
import { createPdfRenderer } from './pdf-renderer.ts';
import { runProcess } from './run-process.ts';
import { addFile } from '@dropsite/testkit/builder/fixtures';
import { hasTool, makeOdfPackage, requireTool } from '@dropsite/testkit/builder/media-fixtures';
import { MemoryStorage } from '@dropsite/testkit/builder/memory-storage';

const haveTools = requireTool('LibreOffice', hasTool('soffice', ['--version'])) && requireTool('bubblewrap', hasTool('bwrap', ['--version']));

/** An ODT (written by hand): a visible paragraph, then one section per linked file. */
function makeOdtLinking(urls: readonly string[]): Buffer {
  const sections = urls
    .map(
      (url, i) =>
        `<text:section text:name="Linked${i}"><text:section-source xlink:href="${url}" xlink:type="simple" text:filter-name="Text"/><text:p>stale copy ${i}</text:p></text:section>`,
    )
    .join('\n');
  const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.3">
 <office:body><office:text>
  <text:p>Visible body text</text:p>
  ${sections}
 </office:text></office:body>
</office:document-content>`;
  return makeOdfPackage('application/vnd.oasis.opendocument.text', content);
}

async function pdfText(pdf: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(pdf), useSystemFonts: false }).promise;
  let text = '';
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    text += `${content.items.map((item) => ('str' in item ? item.str : '')).join(' ')}\n`;
  }
  await doc.cleanup();
  await doc.loadingTask.destroy();
  return text;
}

describe('office conversion without bubblewrap', () => {
  it('refuses to convert rather than run LibreOffice unsandboxed', async () => {
    const toolDir = mkdtempSync(path.join(os.tmpdir(), 'dropsite-fake-soffice-'));
    const marker = path.join(toolDir, 'ran');
    const fake = path.join(toolDir, 'soffice');
    writeFileSync(fake, `#!/bin/sh\ntouch ${JSON.stringify(marker)}\n`, { mode: 0o755 });
    try {
      const storage = new MemoryStorage();
      const file = await addFile(storage, 'report.odt', Buffer.from('PK\x03\x04 pretend'));
      const renderer = createPdfRenderer();
      try {
        const outcome = await deriveFile(storage, file, 'document', { pdfRenderer: renderer, office: { sofficePath: fake, bwrapPath: '/nonexistent/bwrap' } });
        expect(outcome.metadata.error).toBe(NO_OFFICE_SANDBOX);
      } finally {
        await renderer.close();
      }
      expect(existsSync(marker)).toBe(false); // the converter never ran
      expect(storage.objects.has(derivedPdfKey(file.sha256))).toBe(false);
    } finally {
      rmSync(toolDir, { recursive: true, force: true });
    }
  });

  it('says so when bubblewrap may not build its sandbox here (no namespaces), without running LibreOffice', async () => {
    const toolDir = mkdtempSync(path.join(os.tmpdir(), 'dropsite-fake-bwrap-'));
    const marker = path.join(toolDir, 'ran');
    const fakeSoffice = path.join(toolDir, 'soffice');
    const fakeBwrap = path.join(toolDir, 'bwrap');
    writeFileSync(fakeSoffice, `#!/bin/sh\ntouch ${JSON.stringify(marker)}\n`, { mode: 0o755 });
    // What bwrap answers in a container whose seccomp profile refuses user namespaces.
    writeFileSync(
      fakeBwrap,
      '#!/bin/sh\necho "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const renderer = createPdfRenderer();
    try {
      const storage = new MemoryStorage();
      const file = await addFile(storage, 'report.docx', Buffer.from('PK\x03\x04 pretend'));
      const outcome = await deriveFile(storage, file, 'document', { pdfRenderer: renderer, office: { sofficePath: fakeSoffice, bwrapPath: fakeBwrap } });
      expect(outcome.metadata.error).toBe(NO_OFFICE_SANDBOX);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await renderer.close();
      rmSync(toolDir, { recursive: true, force: true });
    }
  });
});

describe.runIf(haveTools)('office conversion sandbox', () => {
  const renderer = createPdfRenderer();
  const options: TDeriveFileOptions = { pdfRenderer: renderer };
  let secretDir: string;
  let fileSecret: string;
  let envSecret: string;
  /** Stands in for the builder: a process whose environment holds a secret. */
  let holder: ChildProcess;

  beforeAll(() => {
    secretDir = mkdtempSync(path.join(os.tmpdir(), 'dropsite-secret-'));
    fileSecret = `FILESECRET${randomBytes(8).toString('hex')}`;
    envSecret = `ENVSECRET${randomBytes(8).toString('hex')}`;
    writeFileSync(path.join(secretDir, 'secret.txt'), `${fileSecret}\n`);
    holder = spawn('sleep', ['600'], { env: { PATH: process.env.PATH, DATABASE_PASSWORD: envSecret }, stdio: 'ignore' });
  });

  afterAll(async () => {
    holder.kill('SIGKILL');
    rmSync(secretDir, { recursive: true, force: true });
    await renderer.close();
  });

  it('does not print linked local files or another process environment into the preview PDF', async () => {
    // The holder's environment is readable from outside a sandbox (same user): the test is meaningful.
    expect(readFileSync(`/proc/${holder.pid}/environ`, 'latin1')).toContain(envSecret);
    const links = [pathToFileURL(path.join(secretDir, 'secret.txt')).href, `file:///proc/${holder.pid}/environ`];
    const hostname = existsSync('/etc/hostname') ? readFileSync('/etc/hostname', 'utf8').trim() : '';
    if (hostname.length >= 4) links.push('file:///etc/hostname');

    const storage = new MemoryStorage();
    const file = await addFile(storage, 'linked.odt', makeOdtLinking(links));
    const outcome = await deriveFile(storage, file, 'document', options);
    expect(outcome.metadata.error).toBeUndefined();
    const pdf = storage.objects.get(derivedPdfKey(file.sha256))!.body;
    const text = await pdfText(pdf);

    expect(text).toContain('Visible body text'); // the conversion worked and its text is readable
    expect(text).not.toContain(fileSecret);
    expect(text).not.toContain(envSecret);
    if (hostname.length >= 4) expect(text).not.toContain(hostname);
  }, 180_000);

  it('keeps even a converter that follows every link away from local files and other processes', async () => {
    // A stand-in for LibreOffice with its link protections broken: it reads each path the document
    // lists and prints what it found into the PDF.
    const toolDir = mkdtempSync(path.join(os.tmpdir(), 'dropsite-fake-soffice-'));
    chmodSync(toolDir, 0o755);
    const fake = path.join(toolDir, 'soffice');
    writeFileSync(
      fake,
      `#!/bin/sh
for input; do :; done
prev=; for a; do [ "$prev" = --outdir ] && out=$a; prev=$a; done
text=converted
while IFS= read -r p; do text="$text $(tr -c 'A-Za-z0-9=_' ' ' < "$p" 2>/dev/null)"; done < "$input"
content="BT /F1 8 Tf 10 700 Td ($text) Tj ET"
name=$(basename "$input"); mkdir -p "$out"
printf '%%PDF-1.4\\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Resources<</Font<</F1 4 0 R>>>>/Contents 5 0 R>>endobj\\n4 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\\n5 0 obj<</Length %d>>stream\\n%s\\nendstream\\nendobj\\ntrailer<</Root 1 0 R>>\\n%%%%EOF\\n' "\${#content}" "$content" > "$out/\${name%.*}.pdf"
`,
      { mode: 0o755 },
    );
    try {
      const links = [path.join(secretDir, 'secret.txt'), `/proc/${holder.pid}/environ`].join('\n');
      const storage = new MemoryStorage();
      const file = await addFile(storage, 'follows-links.odt', Buffer.from(`${links}\n`));
      await deriveFile(storage, file, 'document', { ...options, office: { sofficePath: fake } });
      const pdf = storage.objects.get(derivedPdfKey(file.sha256))?.body.toString('latin1') ?? '';
      expect(pdf).toContain('(converted'); // the stand-in ran and wrote the PDF
      expect(pdf).not.toContain(fileSecret);
      expect(pdf).not.toContain(envSecret);
    } finally {
      rmSync(toolDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('runs LibreOffice as an unprivileged user that sees neither the host processes nor files outside its folder', async () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'dropsite-sandbox-probe-'));
    // As the conversion does: a root builder hands the folder to the sandbox's user.
    if (process.getuid?.() === 0) chownSync(scratch, OFFICE_SANDBOX_UID, OFFICE_SANDBOX_UID);
    try {
      const probe = [
        'id -u',
        `cat ${JSON.stringify(path.join(secretDir, 'secret.txt'))} 2>/dev/null || echo no-secret-file`,
        `cat /proc/${holder.pid}/environ 2>/dev/null || echo no-host-process`,
        'ls /proc | grep -c "^[0-9]"',
        'echo written > "$HOME/probe.txt" && echo scratch-writable',
      ].join('; ');
      const { command, args } = officeSandboxArgs(scratch, '/bin/sh', ['-c', probe]);
      const result = await runProcess(command, args, { timeoutMs: 30_000, env: { PATH: '/usr/bin:/bin', HOME: scratch } });
      const lines = result.stdout.toString('utf8').trim().split('\n');
      expect(result.code, result.stderr).toBe(0);
      expect(lines[0]).toBe(String(process.getuid?.() === 0 ? OFFICE_SANDBOX_UID : process.getuid?.()));
      expect(lines[1]).toBe('no-secret-file');
      expect(lines[2]).toBe('no-host-process');
      expect(Number(lines[3])).toBeLessThanOrEqual(5); // its own pid namespace: bwrap's init, sh and its children
      expect(lines[4]).toBe('scratch-writable');
      expect(readFileSync(path.join(scratch, 'probe.txt'), 'utf8')).toBe('written\n');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 60_000);
});
