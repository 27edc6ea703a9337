/**
 * An archive entry's name reaches the visitor twice: in the tree and as the download name of
 * /entry. Both get the upload rule, so 'invoice\u202Efdp.exe' cannot pose as 'invoiceexe.pdf'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm, postUpload } from '@dropsite/testkit/control-api/fixtures';
import { contentDisposition } from '../http/content-disposition.ts';
import { makeYazlZip } from '@dropsite/testkit/control-api/download-fixtures';

const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f]|%E2%80%A[A-E]|%E2%81%A[6-9]|%E2%80%8[EF]/i;

describe('archive entry names in downloads', () => {
  let app: TTestApp;
  let zipId = '';

  beforeAll(async () => {
    app = await startTestApp();
    const archive = await makeYazlZip([{ name: 'docs/invoice\u202Efdp.exe', data: 'MZ' }]);
    await postUpload(app.url, buildUploadForm([{ name: 'invoices.zip', type: 'application/zip', bytes: archive }], { title: 'Invoices' }));
    await app.deps.queue.whenIdle();
    zipId = (await app.deps.db.selectFrom('files').select('id').where('name', '=', 'invoices.zip').executeTakeFirstOrThrow()).id;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  it('extracts the entry under its cleaned name, with no direction override in Content-Disposition', async () => {
    const res = await fetch(`${app.url}/api/files/${zipId}/entry?path=${encodeURIComponent('docs/invoicefdp.exe')}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('MZ');
    const disposition = res.headers.get('content-disposition') ?? '';
    expect(disposition).toBe(`attachment; filename="invoicefdp.exe"; filename*=UTF-8''invoicefdp.exe`);
    expect(disposition).not.toMatch(BIDI);
    const hostile = await fetch(`${app.url}/api/files/${zipId}/entry?path=${encodeURIComponent('docs/invoice\u202Efdp.exe')}`);
    expect(hostile.status).toBe(404);
    await hostile.arrayBuffer();
  });

  it('never writes direction overrides or control characters into a download name', () => {
    const header = contentDisposition('attachment', 'photo\u202Egpj.exe\u2066\r\n');
    expect(header).not.toMatch(BIDI);
    expect(header).toBe(`attachment; filename="photogpj.exe"; filename*=UTF-8''photogpj.exe`);
  });
});
