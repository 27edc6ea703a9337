/**
 * Every refusal answers the catalogue's status with `{ success: false, error, code }` that the reply
 * schema (shared ZErrorResponseSchema, its code an enum of the catalogue) reads, plus the details a
 * client can act on.
 */
import { BILLING_ERRORS, errorStatus, ZErrorResponseSchema } from '@dropsite/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { AppError } from './app-error.ts';

describe('error replies', () => {
  let app: TTestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('take their status from the catalogue', () => {
    expect(new AppError('not_found', 'Not found').status).toBe(errorStatus('not_found'));
    const refusal = new AppError('site_limit_reached', BILLING_ERRORS.site_limit_reached.message, { details: { limit: 3 } });
    expect(refusal.status).toBe(403);
    expect(refusal.details).toEqual({ limit: 3 });
  });

  it('read as the reply schema: an upload that is not multipart, and a path the API does not have', async () => {
    const upload = await fetch(`${app.url}/api/upload`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x' });
    expect(upload.status).toBe(400);
    expect(ZErrorResponseSchema.parse(await upload.json())).toEqual({ success: false, code: 'bad_request', error: 'Expected a multipart/form-data upload' });
    const missing = await fetch(`${app.url}/api/no-such-call`);
    expect(missing.status).toBe(errorStatus('not_found'));
    expect(ZErrorResponseSchema.parse(await missing.json()).code).toBe('not_found');
  });
});
