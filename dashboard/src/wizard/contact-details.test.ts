import { describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES, DEFAULT_SITE_SETTINGS, ZChunkedInitRequestSchema, ZPreviewRequestSchema, ZUploadFormSchema } from '@dropsite/shared';
import { validateDetails } from './details-validation.ts';
import { EMPTY_FORM, INITIAL_WIZARD_STATE, reduceWizard, type TWizardAction, type TWizardState } from './wizard-state.ts';
import { buildPreviewRequest } from './preview-html.ts';
import { buildUploadForm } from '../upload/upload-files.ts';
import { toUploadMetadata, type TPublishDraft } from '../upload/publish-site.ts';

const now = new Date(2026, 4, 12, 18, 30);
const details = { title: 'Wedding', description: 'Photos', expiryDate: '' };
const run = (actions: TWizardAction[], from: TWizardState = INITIAL_WIZARD_STATE) => actions.reduce((s, a) => reduceWizard(s, a), from);

describe('contact details in the wizard', () => {
  it('starts empty and keeps what the creator types per field', () => {
    expect(EMPTY_FORM.contactInfo).toEqual({ email: '', website: '', instagram: '', twitter: '', linkedin: '', github: '' });
    const state = run([
      { type: 'edit-contact', field: 'email', value: 'mira@studio.example' },
      { type: 'edit-contact', field: 'github', value: 'mira' },
    ]);
    expect(state.form.contactInfo).toEqual({ email: 'mira@studio.example', website: '', instagram: '', twitter: '', linkedin: '', github: 'mira' });
    expect(run([{ type: 'create-another' }], state).form.contactInfo).toEqual(EMPTY_FORM.contactInfo);
  });

  it('restores a saved draft with or without contact details', () => {
    const saved = { title: 'T', description: 'D', authorName: '', expiryDate: '', template: 'universal' as const, settings: DEFAULT_SITE_SETTINGS };
    expect(run([{ type: 'restore-form', form: saved }]).form.contactInfo).toEqual(EMPTY_FORM.contactInfo);
    const withContact = run([{ type: 'restore-form', form: { ...saved, contactInfo: { ...EMPTY_FORM.contactInfo, website: 'mira.studio' } } }]);
    expect(withContact.form.contactInfo.website).toBe('mira.studio');
  });

  it('does not continue past the details step while a contact field is not valid, and says which one', () => {
    expect(validateDetails({ ...details, contactInfo: EMPTY_FORM.contactInfo }, now)).toMatchObject({ canContinue: true, contact: {} });
    const valid = {
      email: 'mira@studio.example',
      website: 'mira.studio',
      instagram: '@mira.photos',
      twitter: '@mira',
      linkedin: 'mira-solberg',
      github: 'https://github.com/mira',
    };
    expect(validateDetails({ ...details, contactInfo: valid }, now).canContinue).toBe(true);
    const invalid = validateDetails({ ...details, contactInfo: { ...valid, email: 'mira@', website: 'javascript:alert(1)' } }, now);
    expect(invalid).toMatchObject({ canContinue: false, contact: { email: CONTACT_MESSAGES.email, website: CONTACT_MESSAGES.website } });
    expect(Object.keys(invalid.contact)).toEqual(['email', 'website']);
    const badInstagram = validateDetails({ ...details, contactInfo: { ...valid, instagram: 'javascript:alert(1)' } }, now);
    expect(badInstagram).toMatchObject({ canContinue: false, contact: { instagram: CONTACT_MESSAGES.instagram } });
  });
});

describe('contact details in every publish call', () => {
  const typed = { email: ' mira@studio.example ', website: '', instagram: 'mira.photos', twitter: '@mira', linkedin: '', github: '' };
  /** What the server's schema stores of `typed`. */
  const typedAsLinks = { email: 'mira@studio.example', website: '', instagram: 'https://instagram.com/mira.photos', twitter: 'https://x.com/mira', linkedin: '', github: '' };
  const draft: TPublishDraft = {
    title: 'T',
    description: 'D',
    authorName: '',
    template: 'universal',
    password: '',
    expiryDate: '',
    settings: DEFAULT_SITE_SETTINGS,
    contactInfo: typed,
  };

  it('the multipart form carries the filled-in fields as JSON, which the server schema reads as https links', () => {
    const form = buildUploadForm({ files: [new File(['x'], 'a.jpg')], title: 'T', contactInfo: typed });
    expect(JSON.parse(String(form.get('contactInfo')))).toEqual({ email: 'mira@studio.example', instagram: 'mira.photos', twitter: '@mira' });
    const parsed = ZUploadFormSchema.parse(Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string')));
    expect(parsed.contactInfo).toEqual(typedAsLinks);
    // Nothing filled in: no field at all.
    expect(buildUploadForm({ files: [], title: 'T', contactInfo: EMPTY_FORM.contactInfo }).has('contactInfo')).toBe(false);
  });

  it('the chunked inits and the preview send the same details', () => {
    const metadata = toUploadMetadata(draft);
    expect(metadata.contactInfo).toEqual({ email: 'mira@studio.example', instagram: 'mira.photos', twitter: '@mira' });
    expect(ZChunkedInitRequestSchema.parse({ ...metadata, files: [{ name: 'a', size: 1 }] }).contactInfo.twitter).toBe('https://x.com/mira');
    expect(ZChunkedInitRequestSchema.parse({ ...metadata, files: [{ name: 'a', size: 1 }] }).contactInfo.instagram).toBe('https://instagram.com/mira.photos');
    expect('contactInfo' in toUploadMetadata({ ...draft, contactInfo: EMPTY_FORM.contactInfo })).toBe(false);

    const preview = buildPreviewRequest({ ...draft, contactInfo: typed }, [], new Map());
    expect(ZPreviewRequestSchema.parse(preview).contactInfo).toEqual(typedAsLinks);
  });
});
