/** The form an upload session keeps as JSON in its row is read back through its schema. */
import { DEFAULT_SITE_SETTINGS } from '@dropsite/shared';
import { describe, expect, it } from 'vitest';
import { chunkChecksumOf, storedFormOf } from './session-rules.ts';

const FORM = { title: 'Harbour', description: '', template: 'universal', authorName: 'Mara', settings: DEFAULT_SITE_SETTINGS, expiresAt: null, passwordHash: null };
const session = (form: unknown) => ({ id: 'session-1', form: typeof form === 'string' ? form : JSON.stringify(form) });

describe('storedFormOf', () => {
  it('reads a form stored before look, contact details, owner and chunk checksums were kept', () => {
    expect(storedFormOf(session(FORM))).toEqual(FORM);
    expect(chunkChecksumOf(session(FORM))).toBeUndefined();
    expect(chunkChecksumOf(session({ ...FORM, chunkChecksum: 'sha256' }))).toBe('sha256');
  });

  it('refuses a row that holds no JSON, or JSON that is not a stored form', () => {
    expect(() => storedFormOf(session('{"title":'))).toThrow('Upload session session-1 holds a form that is not JSON');
    expect(() => storedFormOf(session({ ...FORM, expiresAt: 'tomorrow' }))).toThrow(/Upload session session-1 holds an unreadable form/);
    expect(() => storedFormOf(session({ ...FORM, chunkChecksum: 'md5' }))).toThrow(/unreadable form/);
  });
});
