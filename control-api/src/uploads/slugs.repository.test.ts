import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../db/ids.ts';
import { createProjectWithFiles } from '../projects/projects.repository.ts';
import { createTestDatabase, isDialectAvailable, makeProjectRow, TEST_DIALECTS, type TTestDatabase } from '../test-support/test-database.ts';
import { insertUploadSession } from '../upload-sessions/upload-sessions.repository.ts';
import { isSlugInUse } from './slugs.repository.ts';

for (const dialect of TEST_DIALECTS) {
  describe.skipIf(!(await isDialectAvailable(dialect)))(`slugs in use (${dialect})`, () => {
    let handle: TTestDatabase;
    beforeAll(async () => {
      handle = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await handle?.cleanup();
    });

    it("counts a site's slug, a deleted site's, and one an upload session reserved; not a free one", async () => {
      const live = makeProjectRow();
      const deleted = makeProjectRow({ deleted_at: 1_763_800_000_000 });
      await createProjectWithFiles(handle.db, live, []);
      await createProjectWithFiles(handle.db, deleted, []);
      const reserved = `reserved-${newId()
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '')}`;
      const sessionId = newId();
      await insertUploadSession(
        handle.db,
        {
          id: sessionId,
          project_id: newId(),
          protocol: 'chunked',
          status: 'open',
          idempotency_key: null,
          anonymous_session_id: null,
          form: '{}',
          created_at: 1,
          expires_at: 2,
          completed_at: null,
          project_slug: reserved,
          request_fingerprint: 'f',
          lease_until: null,
        },
        [],
      );
      for (const slug of [live.slug, deleted.slug, reserved]) expect(await isSlugInUse(handle.db, slug)).toBe(true);
      expect(await isSlugInUse(handle.db, `free-${newId().toLowerCase()}`)).toBe(false);
    });
  });
}
