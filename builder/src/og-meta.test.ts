import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as cheerio from 'cheerio';
import { siteOgImageKey } from '@dropsite/shared';
import { createSiteBuilder } from './build-site.ts';
import { ensureTemplateBuilt } from '@dropsite/testkit/builder/ensure-template-built';
import { MemoryStorage } from '@dropsite/testkit/builder/memory-storage';
import { addFile, makeImage, makeInput, makeSite, recordingLogger } from '@dropsite/testkit/builder/fixtures';

beforeAll(ensureTemplateBuilt);

describe('Open Graph tags of a built site', () => {
  const storage = new MemoryStorage();
  const builder = createSiteBuilder({ storage, siteOrigin: 'https://dropsite.test', log: recordingLogger() });
  afterAll(() => builder.close());

  it('point link previews at the absolute og.png, as a large card', async () => {
    const image = await addFile(storage, 'cover.jpg', await makeImage(1200, 800));
    const result = await builder.buildSite(makeInput(makeSite({ slug: 'og-tags-site' }), [image]), async () => {});
    const $ = cheerio.load(storage.text(result.htmlKey));
    expect($('meta[property="og:image"]').attr('content')).toBe('https://dropsite.test/og-tags-site/og.png');
    expect($('meta[property="og:image:width"]').attr('content')).toBe('1200');
    expect($('meta[property="og:image:height"]').attr('content')).toBe('630');
    expect($('meta[name="twitter:card"]').attr('content')).toBe('summary_large_image');
    expect($('meta[name="twitter:image"]').attr('content')).toBe('https://dropsite.test/og-tags-site/og.png');
    expect(storage.objects.has(siteOgImageKey('og-tags-site'))).toBe(true);
  });
});
