/**
 * The plan lists the pricing, the plans page and the billing page show, held to the catalogue's own
 * figures: a paid plan lists only what it adds over the plan below (its bigger limits and the Pro
 * features the server gates), never what every plan already has; each figure a line quotes is the
 * plan's limit. The server's side (gated features refused on Free, the rest working on Free) is
 * control-api/src/billing/plan-catalogue.security.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { PLAN_IDS, PLANS, PRO_FEATURES, UNLIMITED, type TPlan, type TPlanFeatureSells } from './plans.ts';

const GB = 1024 ** 3;

/** The figure a limit line must quote: '5 GB', 'Unlimited', '3' (sites, seats). */
function figureOf(plan: TPlan, limit: Extract<TPlanFeatureSells, { kind: 'limit' }>['limit']): { value: number; text: string } {
  const value = limit === 'delivery' ? plan.maxDeliveryBytes : plan.limits[limit];
  if (value === UNLIMITED) return { value: Number.POSITIVE_INFINITY, text: 'Unlimited' };
  return { value, text: limit === 'delivery' || limit === 'storage' ? `${value / GB} GB` : String(value) };
}

function soldLines(plan: TPlan) {
  return plan.features.flatMap((line) => (line.comingSoon === undefined ? [{ label: line.label, sells: line.sells }] : []));
}

describe('the plan lists', () => {
  it('a paid plan never sells what every plan has: those lines are on Free only', () => {
    for (const id of PLAN_IDS.slice(1)) {
      const everyPlan = soldLines(PLANS[id]).filter((line) => line.sells.kind === 'every_plan');
      expect(
        everyPlan.map((line) => line.label),
        `${id} lists what Free has`,
      ).toEqual([]);
    }
    const free = soldLines(PLANS.free).map((line) => line.sells.kind);
    expect(free.every((kind) => kind === 'every_plan' || kind === 'limit')).toBe(true);
  });

  it('Free lists the features every account has: analytics with charts and CSV, client favourites, replacing files', () => {
    const labels = soldLines(PLANS.free)
      .filter((line) => line.sells.kind === 'every_plan')
      .map((line) => line.label.toLowerCase());
    for (const feature of ['analytics', 'csv export', 'favourites', 'replace files', 'password']) expect(labels.join(' | ')).toContain(feature);
  });

  it('each paid plan starts with the plan below it, and sells Pro features only where the catalogue turns them on', () => {
    PLAN_IDS.forEach((id, index) => {
      const lines = soldLines(PLANS[id]);
      if (index === 0) return;
      const below = PLAN_IDS[index - 1]!;
      expect(lines[0]).toEqual({ label: `Everything in ${PLANS[below].name}`, sells: { kind: 'includes', plan: below } });
      for (const line of lines) {
        if (line.sells.kind !== 'pro_features') continue;
        expect(PLANS[id].proFeatures).toBe(true);
        // A Pro feature is sold by the first plan that has it; the plans above include it.
        expect(PLANS[below].proFeatures, `${id} sells ${line.label} but ${below} has it already`).toBe(false);
        for (const feature of line.sells.features) expect(PRO_FEATURES).toContain(feature);
      }
    });
  });

  it('every figure a line quotes is the plan’s own limit, and a paid plan’s figure beats the plan below', () => {
    PLAN_IDS.forEach((id, index) => {
      for (const line of soldLines(PLANS[id])) {
        if (line.sells.kind !== 'limit') continue;
        const figure = figureOf(PLANS[id], line.sells.limit);
        expect(line.label, `${id}: ${line.sells.limit}`).toContain(figure.text);
        if (index > 0) expect(figure.value).toBeGreaterThan(figureOf(PLANS[PLAN_IDS[index - 1]!], line.sells.limit).value);
      }
    });
  });

  it('a plan selling its audit log quotes the time the catalogue keeps it', () => {
    for (const id of PLAN_IDS) {
      for (const line of soldLines(PLANS[id])) {
        if (line.sells.kind !== 'audit_log') continue;
        const days = PLANS[id].auditLogDays;
        expect(line.label, id).toContain(days === 365 ? 'a year' : `${days} days`);
      }
    }
  });

  it('the plans’ storage, active sites and delivery size are all on Free’s list, so the step up is visible', () => {
    const limits = soldLines(PLANS.free).flatMap((line) => (line.sells.kind === 'limit' ? [line.sells.limit] : []));
    expect(limits.sort()).toEqual(['delivery', 'projects', 'storage']);
  });
});
