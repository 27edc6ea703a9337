/**
 * TRUST_PROXY: which proxies in front of the API may say who the client is (X-Forwarded-For).
 * `false` (none), a hop count (the edge in docker-compose is 1), or a comma-separated list of proxy
 * addresses, CIDR ranges or Express's names (loopback, linklocal, uniquelocal). Express then takes the
 * right-most address not appended by a trusted proxy; `true` ("trust every hop", i.e. the left-most
 * address, which the client writes itself) is refused.
 */
import { isIP } from 'node:net';
import { z } from 'zod';

export type TTrustProxy = false | number | string[];

const NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyEntry(entry: string): boolean {
  if (NAMES.has(entry)) return true;
  const slash = entry.indexOf('/');
  if (slash < 0) return isIP(entry) !== 0;
  const version = isIP(entry.slice(0, slash));
  const bits = entry.slice(slash + 1);
  if (version === 0 || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (version === 4 ? 32 : 128);
}

export const ZTrustProxySchema = z
  .string()
  .default('false')
  .transform((text, ctx): TTrustProxy => {
    const value = text.trim().toLowerCase();
    if (value === '' || value === 'false' || value === 'no' || value === '0') return false;
    if (value === 'true' || value === 'yes') {
      ctx.addIssue({
        code: 'custom',
        message: '"true" would trust an address the client writes itself; give the number of proxies in front (e.g. 1) or their addresses',
      });
      return z.NEVER;
    }
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const entries = value
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const bad = entries.filter((e) => !isProxyEntry(e));
    if (entries.length === 0 || bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be false, the number of proxies in front, or proxy addresses/CIDR ranges (not ${JSON.stringify(bad.join(',') || text)})`,
      });
      return z.NEVER;
    }
    return entries;
  });
