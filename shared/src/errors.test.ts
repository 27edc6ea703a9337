import { STATUS_CODES } from 'node:http';
import { describe, expect, it } from 'vitest';
import { BILLING_ERRORS, ERROR_CODES, ERRORS, errorMessage, errorStatus, isUpgradeErrorCode, limitErrorCode, UPGRADE_ERROR_CODES, ZErrorCodeSchema } from './errors.ts';
import { PLAN_LIMIT_KEYS, PLAN_LIMIT_ROWS, ZPlanLimitsSchema, ZUsageSchema } from './plan-limits.ts';
import { PLANS } from './plans.ts';
import { ZErrorResponseSchema } from './schemas.ts';

describe('the error catalogue', () => {
  it('gives every code a client or server error status', () => {
    for (const code of ERROR_CODES) {
      const status = errorStatus(code);
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(STATUS_CODES[status], `${code} answers ${status}, a status HTTP names`).toEqual(expect.any(String));
    }
    expect(errorStatus('not_found')).toBe(404);
    expect(errorStatus('site_limit_reached')).toBe(403);
    expect(errorStatus('storage_limit_reached')).toBe(413);
  });

  it('offers the plans for exactly the refusals a better plan cures', () => {
    expect(UPGRADE_ERROR_CODES).toEqual(expect.arrayContaining(['storage_limit_reached', 'delivery_too_large', 'site_limit_reached', 'pro_feature', 'over_plan_limits']));
    // The upgrade prompt shows the refusal's own words: a sentence that names the plan (or Pro) a better one would give.
    for (const code of UPGRADE_ERROR_CODES) expect(ERRORS[code].message, code).toMatch(/^[A-Z].*\b(plan|Pro)\b/);
    expect(isUpgradeErrorCode('pro_feature')).toBe(true);
    expect(isUpgradeErrorCode('trial_used')).toBe(false);
    expect(isUpgradeErrorCode('a_code_from_a_newer_server')).toBe(false);
  });

  it('words each billing code once, and names the refusal of each enforced plan limit', () => {
    expect(errorMessage('trial_used')).toBe(BILLING_ERRORS.trial_used.message);
    expect(limitErrorCode('storage')).toBe('storage_limit_reached');
    expect(limitErrorCode('projects')).toBe('site_limit_reached');
    for (const code of ERROR_CODES) {
      const limit = ERRORS[code].limit;
      if (limit === undefined) continue;
      expect(PLAN_LIMIT_KEYS, code).toContain(limit);
      expect(ERRORS[code].upgrade, `${code} refuses a plan limit, so a better plan cures it`).toBe(true);
    }
  });

  it('types the error reply by its code: a code the catalogue does not have is no error reply', () => {
    expect(ZErrorResponseSchema.parse({ success: false, error: 'Not found', code: 'not_found' }).code).toBe('not_found');
    expect(ZErrorResponseSchema.safeParse({ success: false, error: 'x', code: 'made_up' }).success).toBe(false);
    expect(ZErrorCodeSchema.options).toEqual(ERROR_CODES);
  });
});

describe('the plan limits', () => {
  it('are the rows of the table, in the usage cards’ order, in every plan', () => {
    expect(Object.keys(ZPlanLimitsSchema.shape)).toEqual(PLAN_LIMIT_KEYS);
    expect(PLAN_LIMIT_KEYS.slice(0, 3)).toEqual(['storage', 'projects', 'collaborators']);
    expect(Object.keys(ZUsageSchema.shape)).toEqual(PLAN_LIMIT_KEYS.map((key) => PLAN_LIMIT_ROWS[key].usage));
    for (const plan of Object.values(PLANS)) expect(ZPlanLimitsSchema.strict().parse(plan.limits), plan.id).toEqual(plan.limits);
  });

  it('refuse a negative count in the usage answer and anything below -1 as a limit', () => {
    expect(ZUsageSchema.shape.storage_used.safeParse(-1).success).toBe(false);
    expect(ZPlanLimitsSchema.shape.storage.safeParse(-2).success).toBe(false);
    expect(ZPlanLimitsSchema.shape.storage.safeParse(-1).success).toBe(true);
  });
});
