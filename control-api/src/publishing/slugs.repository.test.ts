import { expect, it } from 'vitest';
import { newId } from '../db/ids.ts';
import { createSiteWithFiles } from '../site-records/site-records.repository.ts';
import { describeEachDialect, makeSiteRow } from '@dropsite/testkit/control-api/test-database';
import { isSlugInUse } from './slugs.repository.ts';

// A slug an upload session reserved is checked with the sessions' repository (upload-sessions.repository.test.ts).
await describeEachDialect('slugs in use', (handle) => {
  it("counts a site's slug and a deleted site's; not a free one", async () => {
    const live = makeSiteRow();
    const deleted = makeSiteRow({ deleted_at: 1_763_800_000_000 });
    await createSiteWithFiles(handle.db, live, []);
    await createSiteWithFiles(handle.db, deleted, []);
    for (const slug of [live.slug, deleted.slug]) expect(await isSlugInUse(handle.db, slug)).toBe(true);
    expect(await isSlugInUse(handle.db, `free-${newId().toLowerCase()}`)).toBe(false);
  });
});
