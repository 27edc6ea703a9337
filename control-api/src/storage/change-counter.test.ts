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

  it('moves the mark of a folder and of its top-level folder on each write or delete, on reads never, on failed writes too', async () => {
    const sites = () => storage.changes!('sites');
    const abc = () => storage.changes!('sites/abc');
    const xyz = () => storage.changes!('sites/xyz');
    expect([sites(), abc(), xyz()]).toEqual([0, 0, 0]);
    await storage.put('sites/abc/index.html', 'one');
    const [afterWrite, abcAfterWrite] = [sites(), abc()];
    expect(afterWrite).toBeGreaterThan(0);
    expect(abcAfterWrite).toBeGreaterThan(0);
    expect(xyz()).toBe(0);
    await storage.put('uploads/x/y', 'two');
    expect([sites(), abc()]).toEqual([afterWrite, abcAfterWrite]);
    expect(storage.changes!('uploads')).toBeGreaterThan(0);
    await storage.get('sites/abc/index.html');
    await storage.head('sites/abc/index.html');
    expect([sites(), abc()]).toEqual([afterWrite, abcAfterWrite]);

    await storage.put('sites/xyz/index.html', 'three');
    expect(abc()).toBe(abcAfterWrite);
    expect(xyz()).toBeGreaterThan(abcAfterWrite);
    await storage.delete('sites/abc/index.html');
    expect(abc()).toBeGreaterThan(abcAfterWrite);
    const [abcNow, xyzNow] = [abc(), xyz()];
    await storage.deletePrefix('sites/abc/');
    expect(abc()).toBeGreaterThan(abcNow);
    expect(xyz()).toBe(xyzNow);
    // A whole top-level folder deleted: every folder under it changed.
    await storage.deletePrefix('sites/');
    expect(xyz()).toBeGreaterThan(xyzNow);
    // A write that fails may have changed something all the same: it counts.
    await expect(storage.put('../escape', 'x')).rejects.toThrow();
    expect(storage.changes!('..')).toBeGreaterThan(0);
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
