import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStorageChanges } from './change-counter.ts';
import { createDiskStorage } from './disk-storage.ts';
import type { Storage } from './storage.ts';

describe('storage change counter', () => {
  let root: string;
  let storage: Storage;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'dropsite-changes-'));
    storage = countStorageChanges(createDiskStorage(root));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('counts writes and deletes by top-level folder, reads not at all, failed writes too', async () => {
    expect(storage.changes?.('sites')).toBe(0);
    await storage.put('sites/abc/index.html', 'one');
    await storage.put('uploads/x/y', 'two');
    expect(storage.changes?.('sites')).toBe(1);
    await storage.get('sites/abc/index.html');
    await storage.head('sites/abc/index.html');
    expect(storage.changes?.('sites')).toBe(1);
    await storage.delete('sites/abc/index.html');
    await storage.deletePrefix('sites/abc/');
    expect(storage.changes?.('sites')).toBe(3);
    expect(storage.changes?.('uploads')).toBe(1);
    // A write that fails may have changed something all the same: it counts.
    await expect(storage.put('../escape', 'x')).rejects.toThrow();
    expect(storage.changes?.('..')).toBe(1);
    // Counting twice would not add anything.
    expect(countStorageChanges(storage)).toBe(storage);
  });

  it('tells a listener of each key written or deleted and each prefix deleted', async () => {
    const heard: Array<[string, boolean]> = [];
    const told = countStorageChanges(createDiskStorage(root), (key, isPrefix) => heard.push([key, isPrefix]));
    await told.put('derived/ab/thumb.webp', 'x');
    await told.delete('derived/ab/thumb.webp');
    await told.deletePrefix('derived/ab/');
    expect(heard).toEqual([
      ['derived/ab/thumb.webp', false],
      ['derived/ab/thumb.webp', false],
      ['derived/ab/', true],
    ]);
  });
});
