import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, migrateToLatest, type TDatabaseHandle } from './database.ts';

const sizeOf = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

describe('SQLite checkpoints in a thread of their own', () => {
  let dir: string;
  const opened: TDatabaseHandle[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropsite-checkpoint-'));
  });

  afterAll(async () => {
    for (const handle of opened) await handle.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function open(name: string, checkpointInBackground: boolean) {
    const path = join(dir, name);
    const handle = await createDatabase(`sqlite:${path}`, { checkpointInBackground });
    opened.push(handle);
    await migrateToLatest(handle.db);
    await sql`create table notes (id integer primary key, body text not null)`.execute(handle.db);
    return { handle, path };
  }

  /** About 1,500 pages of rows in 300 commits: well under the writer's own checkpoint threshold. */
  async function writeSome(handle: TDatabaseHandle, from: number): Promise<void> {
    for (let i = 0; i < 300; i++) {
      await handle.db.transaction().execute(async (trx) => {
        for (let j = 0; j < 5; j++) await sql`insert into notes (id, body) values (${from + i * 5 + j}, ${'x'.repeat(3000)})`.execute(trx);
      });
    }
  }

  it('moves committed pages into the database file without the writer checkpointing', async () => {
    const { handle, path } = await open('background.sqlite', true);
    const before = sizeOf(path);
    await writeSome(handle, 0);
    await expect.poll(() => sizeOf(path), { timeout: 3_000, interval: 20 }).toBeGreaterThan(before + 3_000_000);
    const { rows } = await sql<{ n: number }>`select count(*) as n from notes`.execute(handle.db);
    expect(Number(rows[0]!.n)).toBe(1_500);
  });

  it('without the thread, leaves them in the log until the writer checkpoints (every 4,000 pages)', async () => {
    const { handle, path } = await open('inline.sqlite', false);
    const before = sizeOf(path);
    await writeSome(handle, 0);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(sizeOf(path)).toBeLessThan(before + 3_000_000);
    expect(sizeOf(`${path}-wal`)).toBeGreaterThan(3_000_000);
  });

  it('keeps the log bounded under writes that never pause', async () => {
    const { handle, path } = await open('sustained.sqlite', true);
    let largest = 0;
    for (let round = 0; round < 40; round++) {
      await writeSome(handle, 1_000_000 + round * 1_500);
      largest = Math.max(largest, sizeOf(`${path}-wal`));
    }
    // 40 × 300 commits of ~20 KB: about 240 MB through the log, which stays near its safety net (32 MB).
    expect(largest).toBeLessThan(64 * 1024 * 1024);
    const { rows } = await sql<{ n: number }>`select count(*) as n from notes`.execute(handle.db);
    expect(Number(rows[0]!.n)).toBe(60_000);
  });
});
