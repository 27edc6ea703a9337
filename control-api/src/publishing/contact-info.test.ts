/**
 * The creator's public contact details (spec 2.4 footer): sent by every publish protocol, checked
 * and stored as https links, and shown in the footer only when given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as cheerio from 'cheerio';
import { CONTACT_MESSAGES, siteHtmlKey } from '@dropsite/shared';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm, makeJpeg } from '@dropsite/testkit/control-api/fixtures';
import { completeSession, initChunked, initDirect, sendChunk } from '@dropsite/testkit/control-api/upload-session-client';
import { ensureTemplateBuilt } from '@dropsite/testkit/builder/ensure-template-built';

const TYPED = {
  email: ' mira@studio.example ',
  website: 'mira.studio',
  instagram: '@mira.photos',
  twitter: '@mira',
  linkedin: 'mira-solberg',
  github: 'https://github.com/mira',
};
const STORED = {
  email: 'mira@studio.example',
  website: 'https://mira.studio/',
  instagram: 'https://instagram.com/mira.photos',
  twitter: 'https://x.com/mira',
  linkedin: 'https://www.linkedin.com/in/mira-solberg',
  github: 'https://github.com/mira',
};

async function readStored(app: TTestApp, key: string): Promise<string> {
  const { body } = await app.deps.storage.get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

describe('contact details of a site', () => {
  let app: TTestApp;
  let jpeg: Buffer;
  beforeAll(async () => {
    await ensureTemplateBuilt();
    app = await startTestApp();
    jpeg = await makeJpeg(320, 240, 2);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  const contactOf = async (slug: string) => {
    const row = await app.deps.db.selectFrom('projects').select('contact_info').where('slug', '=', slug).executeTakeFirstOrThrow();
    return JSON.parse(row.contact_info) as Record<string, string>;
  };
  const postMultipart = async (path: string, fields: Record<string, string>) => {
    const res = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { origin: app.url },
      body: buildUploadForm([{ name: 'a.jpg', type: 'image/jpeg', bytes: jpeg }], fields),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('the regular upload stores them as https links and the footer shows a mail button and one icon button per link', async () => {
    const res = await postMultipart('/api/upload', { contactInfo: JSON.stringify(TYPED), authorName: 'Mira Solberg' });
    expect(res.status).toBe(201);
    const slug = String(res.body.slug);
    expect(await contactOf(slug)).toEqual(STORED);
    await app.deps.queue.whenIdle();

    const $ = cheerio.load(await readStored(app, siteHtmlKey(slug)));
    const footer = $('footer');
    expect(footer.find('h2').text().trim()).toBe('Connect with Mira Solberg');
    expect(footer.text()).toContain("Have questions or want to work together? I'd love to hear from you.");
    const mail = footer.find('a[href^="mailto:"]');
    expect(mail.attr('href')).toBe('mailto:mira@studio.example');
    expect(mail.text().trim()).toBe('Get in touch');
    const links = footer.find('.connect__links a');
    expect(links.map((_, a) => $(a).attr('href')).get()).toEqual([STORED.website, STORED.instagram, STORED.twitter, STORED.linkedin, STORED.github]);
    expect(links.eq(1).attr('aria-label')).toBe('Instagram (opens in a new tab)');
    for (const a of links.toArray()) {
      expect($(a).attr('target')).toBe('_blank');
      expect($(a).attr('rel')).toContain('noopener');
      expect($(a).attr('aria-label')).toMatch(/\(opens in a new tab\)$/);
    }
  }, 60_000);

  it('shows only what was given: a website alone is one icon button and no mail button', async () => {
    const res = await postMultipart('/api/upload', { contactInfo: JSON.stringify({ website: 'https://mira.studio/work' }) });
    expect(res.status).toBe(201);
    await app.deps.queue.whenIdle();
    const $ = cheerio.load(await readStored(app, siteHtmlKey(String(res.body.slug))));
    expect($('footer a[href^="mailto:"]').length).toBe(0);
    expect(
      $('footer .connect__links a')
        .map((_, a) => $(a).attr('href'))
        .get(),
    ).toEqual(['https://mira.studio/work']);
  }, 60_000);

  it('refuses details that are not an address or an https link, with the field named', async () => {
    for (const [field, value] of [
      ['email', 'mira@studio.example?cc=victim@example.com'],
      ['website', 'javascript:alert(1)'],
      ['website', 'http://mira.studio'],
      ['instagram', 'javascript:alert(1)'],
      ['instagram', 'https://instagram.com.evil.example/mira'],
      ['twitter', 'https://evil.example/mira'],
      ['github', 'not a handle'],
    ] as const) {
      const res = await postMultipart('/api/upload', { contactInfo: JSON.stringify({ [field]: value }) });
      expect(res.status, `${field}=${value}`).toBe(400);
      expect(String(res.body.error)).toContain(CONTACT_MESSAGES[field]);
    }
    expect((await postMultipart('/api/upload', { contactInfo: '{oops' })).status).toBe(400);
  });

  it('the direct upload takes the same field', async () => {
    const res = await postMultipart('/api/direct-upload', { contactInfo: JSON.stringify({ github: 'mira' }) });
    expect(res.status).toBe(201);
    expect(await contactOf(String(res.body.slug))).toEqual({ email: '', website: '', instagram: '', twitter: '', linkedin: '', github: 'https://github.com/mira' });
    await app.deps.queue.whenIdle();
  });

  it('the chunked and direct-chunked inits take them and the completed site keeps them', async () => {
    const file = { name: 'clip.bin', bytes: Buffer.from('chunked contact test') };
    const chunked = await initChunked(app.url, [file], { contactInfo: { email: 'mira@studio.example', twitter: 'mira' } });
    expect(chunked.status).toBe(201);
    const { sessionId, uploadUrls, projectSlug: siteSlug } = chunked.body as unknown as { sessionId: string; projectSlug: string; uploadUrls: Array<{ uploadUrl: string }> };
    expect((await sendChunk(app.url, uploadUrls[0]!.uploadUrl, 0, file.bytes, { last: true })).status).toBe(200);
    expect((await completeSession(app.url, sessionId)).status).toBe(200);
    expect(await contactOf(siteSlug)).toEqual({ email: 'mira@studio.example', website: '', instagram: '', twitter: 'https://x.com/mira', linkedin: '', github: '' });

    const refused = await initDirect(app.url, [file], { contactInfo: { linkedin: 'data:text/html,hi' } });
    expect(refused.status).toBe(400);
    expect(String(refused.body.error)).toContain(CONTACT_MESSAGES.linkedin);
    const accepted = await initDirect(app.url, [file], { contactInfo: { linkedin: 'https://www.linkedin.com/in/mira-solberg' } });
    expect(accepted.status).toBe(201);
    await app.deps.queue.whenIdle();
  });
});
