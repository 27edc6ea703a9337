/**
 * The render model is what a public page and its islands' props are made of: it holds the
 * visitor-facing switches and public contact details only, and refuses any other field.
 */
import { describe, expect, it } from 'vitest';
import { makeFile } from '@dropsite/testkit/site-template';
import { DEFAULT_SITE_SETTINGS, PUBLIC_SITE_SETTING_KEYS, ZSiteRenderModelSchema, toPublicSiteSettings, type TSiteRenderModel } from './schemas.ts';

const MODEL: TSiteRenderModel = {
  projectId: 'proj_1',
  slug: 'harbour-lights',
  title: 'Harbour Lights',
  subLine: '',
  tagLine: '',
  description: '',
  authorName: 'Mira',
  template: 'universal',
  theme: 'professional-light',
  settings: { enableFavorites: true, enableComments: false, enableApprovals: false, enableAnalytics: true },
  contactInfo: { email: '', website: '', instagram: '', twitter: '', linkedin: '', github: '' },
  files: [],
  publishedAt: '2025-03-04T10:00:00.000Z',
  siteOrigin: 'https://dropsite.test',
};

describe('the public render model', () => {
  it('takes the visitor-facing switches of the settings and leaves the notification address and webhook behind', () => {
    const owner = { ...DEFAULT_SITE_SETTINGS, enableNotifications: true, notificationEmail: 'owner@studio.example', slackWebhook: 'https://hooks.slack.com/services/T/B/secret' };
    const settings = toPublicSiteSettings(owner);
    expect(Object.keys(settings).sort()).toEqual([...PUBLIC_SITE_SETTING_KEYS].sort());
    expect(JSON.stringify(settings)).not.toMatch(/owner@studio|hooks\.slack|enableNotifications/);
  });

  it('refuses owner-only data anywhere in the model instead of passing it to the page', () => {
    expect(ZSiteRenderModelSchema.parse(MODEL)).toEqual(MODEL);
    const attempts: Array<[string, unknown]> = [
      ['settings with the webhook', { ...MODEL, settings: { ...MODEL.settings, slackWebhook: 'https://hooks.slack.com/services/T/B/secret' } }],
      ['settings with the notification address', { ...MODEL, settings: { ...MODEL.settings, notificationEmail: 'owner@studio.example' } }],
      ['contact details with another field', { ...MODEL, contactInfo: { ...MODEL.contactInfo, notificationEmail: 'owner@studio.example' } }],
      ['an owner id', { ...MODEL, ownerCreatorId: 'creator_1' }],
      ['an anonymous creator id', { ...MODEL, anonymousSessionId: 'anon_secret' }],
      ['a password hash', { ...MODEL, passwordHash: '$argon2id$v=19$...' }],
      ['a storage key on a file', { ...MODEL, files: [{ ...makeFile('a.jpg', { id: 'f1', type: 'image/jpeg', size: 1 }), storageKey: 'uploads/proj_1/f1' }] }],
    ];
    for (const [what, model] of attempts) expect(ZSiteRenderModelSchema.safeParse(model).success, what).toBe(false);
  });
});
