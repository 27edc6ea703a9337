/**
 * The memory kept of small stored objects: a thumbnail asked for again comes from memory, a rewritten
 * one is never answered from the old bytes, and the memo keeps within its bytes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { derivedKeys, derivedPrefix } from '@dropsite/shared';
import { seedSite } from '@dropsite/testkit/control-api/site-fixtures';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { createObjectMemo } from './object-memo.ts';

describe('small stored objects in memory', () => {
  it('answers only for the ETag the bytes were kept under, and keeps within its bytes, oldest out', () => {
    const memo = createObjectMemo({ maxBytes: 10, maxObjectBytes: 6 });
    expect(memo.set('a', 'e1', Buffer.from('aaaa'))).toBe(true);
    expect(memo.get('a', 'e1')?.toString()).toBe('aaaa');
    expect(memo.get('a', 'e2')).toBeUndefined();
    expect(memo.get('a', 'e1')).toBeUndefined(); // dropped when found stale
    expect(memo.set('big', 'e', Buffer.alloc(7))).toBe(false);
    expect(memo.fits(6)).toBe(true);
    expect(memo.fits(7)).toBe(false);
    memo.set('x', 'e', Buffer.alloc(5));
    memo.set('y', 'e', Buffer.alloc(5));
    memo.set('z', 'e', Buffer.alloc(5)); // x goes
    expect(memo.get('x', 'e')).toBeUndefined();
    expect(memo.get('y', 'e')).toBeDefined();
    expect(memo.get('z', 'e')).toBeDefined();
    expect(memo.set('none', undefined, Buffer.alloc(1))).toBe(false);
  });

  it('answers a content-addressed key whatever its version until told of a write or delete, other keys never', () => {
    const memo = createObjectMemo({ maxBytes: 100, maxObjectBytes: 50 });
    memo.set('derived/aa/thumb-300.webp', 'e1', Buffer.from('thumb a'));
    memo.set('derived/aa/display.webp', 'e1', Buffer.from('display a'));
    memo.set('derived/bb/thumb-300.webp', 'e1', Buffer.from('thumb b'));
    memo.set('uploads/p/f', 'e1', Buffer.from('original'));
    expect(memo.peek('derived/aa/thumb-300.webp')?.toString()).toBe('thumb a');
    expect(memo.peek('uploads/p/f')).toBeUndefined();
    memo.forget('derived/aa/thumb-300.webp', false);
    expect(memo.peek('derived/aa/thumb-300.webp')).toBeUndefined();
    expect(memo.peek('derived/aa/display.webp')?.toString()).toBe('display a');
    memo.forget('derived/aa/', true);
    expect(memo.peek('derived/aa/display.webp')).toBeUndefined();
    expect(memo.peek('derived/bb/thumb-300.webp')?.toString()).toBe('thumb b');
  });

  describe('through the file route', () => {
    let app: TTestApp;
    beforeAll(async () => {
      app = await startTestApp();
    }, 60_000);
    afterAll(() => app?.close());

    it('reads a thumbnail from storage once, then from memory; a rewritten thumbnail is sent as rewritten', async () => {
      const site = await seedSite(app);
      const file = site.files[0]!;
      const url = `${app.url}/api/files/${file.id}?mode=preview&size=300`;
      const get = vi.spyOn(app.deps.storage, 'get');
      try {
        const first = await fetch(url);
        expect(first.status).toBe(200);
        expect(await first.text()).toBe(`thumbnail of ${file.sha256}`);
        const second = await fetch(url);
        expect(await second.text()).toBe(`thumbnail of ${file.sha256}`);
        expect(second.headers.get('content-length')).toBe(String(`thumbnail of ${file.sha256}`.length));
        expect(get).toHaveBeenCalledTimes(1);

        await app.deps.storage.put(derivedKeys(file.sha256).thumbnail, Buffer.from('a better thumbnail'));
        const third = await fetch(url);
        expect(await third.text()).toBe('a better thumbnail');
        expect(get).toHaveBeenCalledTimes(2);
        const head = await fetch(url, { method: 'HEAD' });
        expect(head.headers.get('content-length')).toBe(String('a better thumbnail'.length));
      } finally {
        get.mockRestore();
      }
    });

    it('sends a kept thumbnail without asking storage, ranges and revalidation included; a deleted one is gone', async () => {
      const site = await seedSite(app);
      const file = site.files[0]!;
      const url = `${app.url}/api/files/${file.id}?mode=preview&size=300`;
      const body = `thumbnail of ${file.sha256}`;
      expect(await (await fetch(url)).text()).toBe(body);
      const head = vi.spyOn(app.deps.storage, 'head');
      const get = vi.spyOn(app.deps.storage, 'get');
      try {
        const whole = await fetch(url);
        expect(await whole.text()).toBe(body);
        const etag = whole.headers.get('etag')!;
        const part = await fetch(url, { headers: { range: 'bytes=0-8' } });
        expect(part.status).toBe(206);
        expect(part.headers.get('content-range')).toBe(`bytes 0-8/${body.length}`);
        expect(await part.text()).toBe('thumbnail');
        const beyond = await fetch(url, { headers: { range: `bytes=${body.length + 5}-` } });
        expect(beyond.status).toBe(416);
        expect(beyond.headers.get('content-range')).toBe(`bytes */${body.length}`);
        const again = await fetch(url, { headers: { 'if-none-match': etag } });
        expect(again.status).toBe(304);
        expect(head).not.toHaveBeenCalled();
        expect(get).not.toHaveBeenCalled();

        await app.deps.storage.deletePrefix(derivedPrefix(file.sha256));
        const gone = await fetch(url);
        expect(gone.status).toBe(404);
      } finally {
        head.mockRestore();
        get.mockRestore();
      }
    });
  });
});
