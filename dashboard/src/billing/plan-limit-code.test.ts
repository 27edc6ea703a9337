import { ApiRequestError, callApi } from '@dropsite/shared/browser/api-client';
import { BILLING_ERRORS } from '@dropsite/shared';
import { describe, expect, it } from 'vitest';
import { planLimitOf } from './billing-view.ts';

const reply = (status: number, body: unknown) => async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('a refusal’s code', () => {
  it('is carried from the API’s error reply and offers the plans for an upgrade code', async () => {
    const error = await callApi('/api/x', {}, reply(403, { success: false, error: 'Anything', code: 'site_limit_reached' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as ApiRequestError).code).toBe('site_limit_reached');
    expect(planLimitOf(error)).toBe('site_limit_reached');
  });

  it('is no plan limit when the catalogue does not know it, whatever the words', async () => {
    const error = await callApi('/api/x', {}, reply(403, { success: false, error: BILLING_ERRORS.pro_feature.message, code: 'a_newer_code' })).catch((e: unknown) => e);
    expect((error as ApiRequestError).message).toBe(BILLING_ERRORS.pro_feature.message);
    expect(planLimitOf(error)).toBeNull();
    expect(planLimitOf(new ApiRequestError('Not found', 404, 'not_found'))).toBeNull();
  });

  it('falls back on the words when the reply had no code', async () => {
    const error = await callApi('/api/x', {}, reply(413, { success: false, error: BILLING_ERRORS.storage_limit_reached.message })).catch((e: unknown) => e);
    expect((error as ApiRequestError).code).toBeNull();
    expect(planLimitOf(error)).toBe('storage_limit_reached');
  });
});
