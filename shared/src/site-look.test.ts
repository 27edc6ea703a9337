import { describe, expect, it } from 'vitest';
import { lookChoiceOf, lookOfTheme, resolveSiteLook, storedSiteLook, TEMPLATE_LOOKS, templateLook, themeOfLook } from './site-look.ts';
import { ZProjectUpdateSchema } from './site-management.ts';
import { ZUploadFormSchema } from './schemas.ts';
import { ZUploadMetadataSchema } from './upload-protocol.ts';
import { TEMPLATE_IDS } from './templates.ts';

describe("a site's look", () => {
  it("each template's default is its demo's look (Client Delivery is minimal and dark)", () => {
    for (const id of TEMPLATE_IDS) expect(TEMPLATE_LOOKS[id]).toBeDefined();
    expect(templateLook('client-delivery')).toEqual({ style: 'minimal', colorMode: 'dark', heroLayout: 'minimal', visitorModeToggle: false });
    expect(templateLook('photo-gallery')).toMatchObject({ style: 'elegant', colorMode: 'auto' });
    expect(templateLook('no-such-template')).toEqual(TEMPLATE_LOOKS.universal);
  });

  it('reads the older theme field as a style and a pinned mode', () => {
    expect(lookOfTheme('nature-dark')).toEqual({ style: 'nature', colorMode: 'dark' });
    expect(lookOfTheme(' Creative-Light ')).toEqual({ style: 'creative', colorMode: 'light' });
    expect(lookOfTheme('elegant')).toEqual({ style: 'elegant', colorMode: 'auto' });
    expect(lookOfTheme('dark')).toEqual({ style: 'professional', colorMode: 'dark' });
    for (const junk of ['', 'neon-dark', 'nature-dim', 'nature-dark-x']) expect(lookOfTheme(junk), junk).toBeNull();
  });

  it('reports a look as a theme: the style with its pinned variant, light when automatic', () => {
    expect(themeOfLook({ style: 'nature', colorMode: 'dark' })).toBe('nature-dark');
    expect(themeOfLook({ style: 'nature', colorMode: 'light' })).toBe('nature-light');
    expect(themeOfLook({ style: 'nature', colorMode: 'auto' })).toBe('nature-light');
  });

  it('applies choices over a base; an explicit style or mode wins over the theme', () => {
    const base = templateLook('client-delivery');
    expect(resolveSiteLook(base, {})).toEqual(base);
    expect(resolveSiteLook(base, { theme: 'creative-light' })).toEqual({ ...base, style: 'creative', colorMode: 'light' });
    expect(resolveSiteLook(base, { theme: 'creative-light', colorMode: 'auto', style: 'elegant' })).toEqual({ ...base, style: 'elegant', colorMode: 'auto' });
    expect(resolveSiteLook(base, { heroLayout: 'split', visitorModeToggle: true })).toEqual({ ...base, heroLayout: 'split', visitorModeToggle: true });
  });

  it('reads stored rows: sites from before the colour mode keep a dark theme pinned and follow the visitor otherwise', () => {
    const row = { template: 'universal', theme: 'professional-light', color_mode: null, hero_layout: null, visitor_mode_toggle: 0 };
    expect(storedSiteLook(row)).toEqual({ style: 'professional', colorMode: 'auto', heroLayout: 'minimal', visitorModeToggle: false });
    expect(storedSiteLook({ ...row, theme: 'nature-dark' })).toMatchObject({ style: 'nature', colorMode: 'dark' });
    expect(storedSiteLook({ ...row, color_mode: 'light', hero_layout: 'featured', visitor_mode_toggle: 1 })).toEqual({
      style: 'professional',
      colorMode: 'light',
      heroLayout: 'featured',
      visitorModeToggle: true,
    });
    expect(storedSiteLook({ ...row, theme: 'odd', template: 'event-template', hero_layout: 'odd' })).toMatchObject({ style: 'creative', heroLayout: 'minimal' });
  });

  it('keeps only the choices a request made', () => {
    expect(lookChoiceOf({ style: 'nature', colorMode: undefined, theme: undefined })).toEqual({ style: 'nature' });
  });
});

describe('look fields at the boundaries', () => {
  it('the multipart form takes text fields, and refuses unknown values', () => {
    const form = ZUploadFormSchema.parse({ title: 'T', style: 'nature', colorMode: 'auto', heroLayout: 'split', visitorModeToggle: 'true' });
    expect(form).toMatchObject({ style: 'nature', colorMode: 'auto', heroLayout: 'split', visitorModeToggle: true });
    expect(ZUploadFormSchema.parse({ title: 'T', style: '', visitorModeToggle: 'false' })).toMatchObject({ style: undefined, visitorModeToggle: false });
    expect(ZUploadFormSchema.safeParse({ title: 'T', style: 'neon' }).success).toBe(false);
    expect(ZUploadFormSchema.safeParse({ title: 'T', colorMode: 'sepia' }).success).toBe(false);
    expect(ZUploadFormSchema.safeParse({ title: 'T', visitorModeToggle: 'yes' }).success).toBe(false);
    expect(ZUploadFormSchema.safeParse({ title: 'T', theme: 'nature-dim' }).success).toBe(false);
  });

  it('the JSON inits and the edit call take them too', () => {
    expect(ZUploadMetadataSchema.parse({ title: 'T', colorMode: 'dark', visitorModeToggle: true })).toMatchObject({ colorMode: 'dark', visitorModeToggle: true });
    expect(ZProjectUpdateSchema.parse({ style: 'minimal', colorMode: 'auto', heroLayout: null, visitorModeToggle: false })).toEqual({
      style: 'minimal',
      colorMode: 'auto',
      heroLayout: null,
      visitorModeToggle: false,
    });
    expect(ZProjectUpdateSchema.safeParse({ colorMode: 'sepia' }).success).toBe(false);
    expect(ZProjectUpdateSchema.parse({ theme: 'elegant-dark' })).toEqual({ theme: 'elegant-dark' });
  });
});
