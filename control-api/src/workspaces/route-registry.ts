/**
 * Every API route of the built app, read from Express's own router stack (the routers app.ts mounts
 * at their /api/{segment} prefixes, and the routes they hold): what the role matrix test checks against
 * its permission table, so a route added without a declared permission fails it.
 */
import type { Express } from 'express';

interface TAppRoute {
  method: string;
  /** The full pattern, e.g. /api/projects/:id/settings. */
  path: string;
}

interface TLayerLike {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: unknown };
}

function pathsOf(raw: unknown): string[] {
  if (typeof raw === 'string') return [raw];
  if (Array.isArray(raw)) return raw.filter((p): p is string => typeof p === 'string');
  return [];
}

function join(prefix: string, path: string): string {
  if (path === '/' || path === '') return prefix === '' ? '/' : prefix;
  return `${prefix}${path}`;
}

function walk(stack: readonly TLayerLike[], prefix: string, out: TAppRoute[]): void {
  for (const layer of stack) {
    if (layer.route) {
      for (const path of pathsOf(layer.route.path)) {
        for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') out.push({ method: method.toUpperCase(), path: join(prefix, path) });
      }
      continue;
    }
    const inner = layer.handle?.stack;
    if (Array.isArray(inner)) {
      const mounts = pathsOf(layer.rawPath);
      for (const mount of mounts.length > 0 ? mounts : ['/']) walk(inner as TLayerLike[], join(prefix, mount === '/' ? '' : mount), out);
    }
  }
}

/** The app's API routes (paths under /api/), each method once. */
export function listApiRoutes(app: Express): TAppRoute[] {
  const out: TAppRoute[] = [];
  const stack = (app as unknown as { router?: { stack?: unknown } }).router?.stack;
  if (Array.isArray(stack)) walk(stack as TLayerLike[], '', out);
  const seen = new Set<string>();
  return out.filter((r) => {
    const key = `${r.method} ${r.path}`;
    if (!r.path.startsWith('/api/') || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
