/** What the catalogue's rows give each derived schema and helper. */
import { describe, expect, it } from 'vitest';
import { PRO_FEATURES } from './plans.ts';
import {
  DEFAULT_SITE_SETTINGS,
  PRO_FEATURE_SETTINGS,
  SITE_SETTINGS,
  ZManagedSiteSettingsSchema,
  ZPublicSiteSettingsSchema,
  ZSiteSettingsPatchSchema,
  ZSiteSettingsSchema,
  proFeaturesTurnedOn,
  toManagedSiteSettings,
  toPublicSiteSettings,
} from './site-settings.ts';

describe('the site settings catalogue', () => {
  it('starts a new site at each default and leaves an optional setting out until it is chosen', () => {
    expect(ZSiteSettingsSchema.parse({})).toEqual(DEFAULT_SITE_SETTINGS);
    expect(DEFAULT_SITE_SETTINGS).not.toHaveProperty('fileOrder');
    expect(ZSiteSettingsSchema.parse({ fileOrder: 'name' }).fileOrder).toBe('name');
    expect(ZSiteSettingsSchema.safeParse({ fileOrder: 'size' }).success).toBe(false);
  });

  it('gives the page every public setting, an unchosen one at its default, and nothing of the owner’s', () => {
    const owner = ZSiteSettingsSchema.parse({ enableNotifications: true, notificationEmail: 'owner@studio.example', slackWebhook: 'https://hooks.example/secret' });
    const page = toPublicSiteSettings(owner);
    expect(page).toEqual({ enableFavorites: false, enableComments: false, enableApprovals: false, enableAnalytics: true, fileOrder: SITE_SETTINGS.fileOrder.default });
    expect(ZPublicSiteSettingsSchema.parse(page)).toEqual(page);
    expect(ZPublicSiteSettingsSchema.safeParse({ ...page, notificationEmail: 'owner@studio.example' }).success).toBe(false);
  });

  it('shows the owner what they manage (never the webhook) and takes any of it alone, texts trimmed', () => {
    const stored = ZSiteSettingsSchema.parse({ slackWebhook: 'https://hooks.example/secret' });
    expect(toManagedSiteSettings(stored)).not.toHaveProperty('slackWebhook');
    expect(toManagedSiteSettings(stored)).not.toHaveProperty('fileOrder');
    expect(ZManagedSiteSettingsSchema.parse(toManagedSiteSettings({ ...stored, fileOrder: 'newest' })).fileOrder).toBe('newest');
    expect(ZSiteSettingsPatchSchema.parse({ notificationEmail: '  me@studio.example ' })).toEqual({ notificationEmail: 'me@studio.example' });
    expect(ZSiteSettingsPatchSchema.parse({ fileOrder: 'name' })).toEqual({ fileOrder: 'name' });
    expect(ZSiteSettingsPatchSchema.safeParse({ slackWebhook: 'https://hooks.example/x' }).success).toBe(false);
  });

  it('names one switch per Pro feature and sees which ones a change turns on', () => {
    expect(Object.keys(PRO_FEATURE_SETTINGS).sort()).toEqual([...PRO_FEATURES].sort());
    for (const setting of Object.values(PRO_FEATURE_SETTINGS)) expect(SITE_SETTINGS[setting].type).toBe('switch');
    expect(proFeaturesTurnedOn({ enableComments: true }, { enableComments: true, enableApprovals: true, enableNotifications: false })).toEqual({
      enableComments: false,
      enableApprovals: true,
      enableNotifications: false,
    });
  });
});
