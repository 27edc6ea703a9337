import { describe, expect, it } from 'vitest';
import { APP_PATHS, isAppPagePath, projectIdOfPath, projectPagePath, resolveAppPage } from './app-routes.ts';

describe('the app’s pages', () => {
  it('resolve each listed path to its page, with or without a trailing slash', () => {
    for (const [page, path] of Object.entries(APP_PATHS)) {
      expect(resolveAppPage(path), path).toBe(page);
      expect(resolveAppPage(`${path}/`), path).toBe(page);
      expect(isAppPagePath(path), path).toBe(true);
    }
  });

  it('has a page for each well-formed project id, and the server serves no path with a trailing slash but the root', () => {
    const path = projectPagePath('AbCdEfGh12345678_-');
    expect(path).toBe('/dashboard/projects/AbCdEfGh12345678_-');
    expect(projectIdOfPath(path)).toBe('AbCdEfGh12345678_-');
    expect(resolveAppPage(path)).toBe('project');
    expect(isAppPagePath(path)).toBe(true);
    expect(isAppPagePath(`${path}/`)).toBe(false);
    expect(isAppPagePath('/billing/')).toBe(false);
    expect(isAppPagePath('/index.html')).toBe(false);
    expect(resolveAppPage('/dashboard/projects/short')).toBe('not-found');
    expect(resolveAppPage('/templates')).toBe('not-found');
  });
});
