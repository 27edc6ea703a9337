import { describe, expect, it } from 'vitest';
import { DETAILS_MESSAGES, formatExpiryBadge, parseDateTimeLocal, toDateTimeLocal, toExpiryInstant, validateDetails } from './details-validation.ts';
import { EMPTY_FORM, INITIAL_WIZARD_STATE, reduceWizard, type TWizardAction, type TWizardState } from './wizard-state.ts';
import { buildPreviewRequest } from './preview-html.ts';
import { WIZARD_TIPS } from './tips.ts';

let n = 0;
const createId = () => `f${++n}`;
const file = (name: string) => new File(['x'], name, { lastModified: ++n });
/** A file picked at the top of the drop (no folder, no group). */
const picked = (name: string) => ({ file: file(name), group: null });
const canContinue = (form: TWizardState['form']) => validateDetails(form, new Date()).canContinue;
const run = (actions: TWizardAction[], from: TWizardState = INITIAL_WIZARD_STATE) => actions.reduce((s, a) => reduceWizard(s, a, canContinue), from);

describe('wizard steps', () => {
  it('does not leave the upload step without files', () => {
    expect(run([{ type: 'continue' }]).step).toBe('upload');
  });

  it('fills an empty title from the first file name on the way to the template step', () => {
    const state = run([{ type: 'add-files', files: [picked('summer_wedding-final.jpg'), picked('b.pdf')], createId }, { type: 'continue' }]);
    expect(state.step).toBe('template');
    expect(state.form.title).toBe('Summer Wedding Final');
  });

  it('keeps a title the creator already has', () => {
    const state = run([{ type: 'add-files', files: [picked('a.jpg')], createId }, { type: 'edit', field: 'title', value: 'Anna & Tom' }, { type: 'continue' }]);
    expect(state.form.title).toBe('Anna & Tom');
  });

  it('walks forward upload → template → details → settings → preview → success', () => {
    let state = run([{ type: 'add-files', files: [picked('a.jpg')], createId }, { type: 'continue' }, { type: 'continue' }]);
    expect(state.step).toBe('details');
    // 'Configure Features' needs a description too.
    state = run([{ type: 'continue' }], state);
    expect(state.step).toBe('details');
    state = run([{ type: 'edit', field: 'description', value: 'For the couple' }, { type: 'continue' }, { type: 'continue' }, { type: 'publish' }], state);
    expect(state.step).toBe('success');
  });

  it('goes back template→upload, details→template, settings→details, preview→details', () => {
    const at = (step: TWizardState['step']) => ({ ...INITIAL_WIZARD_STATE, step });
    expect(reduceWizard(at('template'), { type: 'back' }).step).toBe('upload');
    expect(reduceWizard(at('details'), { type: 'back' }).step).toBe('template');
    expect(reduceWizard(at('settings'), { type: 'back' }).step).toBe('details');
    expect(reduceWizard(at('preview'), { type: 'back' }).step).toBe('details');
    expect(reduceWizard(at('upload'), { type: 'back' }).step).toBe('upload');
  });

  it('returns to the upload step after a failed publish, keeping the files and the form', () => {
    const before: TWizardState = {
      step: 'success',
      files: [{ id: 'a', file: file('a.jpg'), group: null }],
      form: { ...EMPTY_FORM, title: 'T', description: 'D', template: 'pitch-template', password: 'pw' },
      overLimit: 0,
    };
    const after = reduceWizard(before, { type: 'publish-failed' });
    expect(after.step).toBe('upload');
    expect(after.files).toBe(before.files);
    expect(after.form).toBe(before.form);
  });

  it("'Create Another Site' resets to upload with the universal template and an empty form", () => {
    const busy = run([
      { type: 'add-files', files: [picked('a.jpg')], createId },
      { type: 'choose-template', template: 'event-template' },
      { type: 'set-setting', settings: { enableComments: true } },
      { type: 'create-another' },
    ]);
    expect(busy.step).toBe('upload');
    expect(busy.files).toEqual([]);
    expect(busy.form).toEqual(EMPTY_FORM);
    expect(busy.form.template).toBe('universal');
  });

  it('fills the form of an interrupted upload in again, with the password left to type', () => {
    const restored = run([
      {
        type: 'restore-form',
        form: {
          title: 'Brand Film',
          description: 'For review',
          authorName: 'Ann',
          expiryDate: '',
          template: 'pitch-template',
          settings: { ...EMPTY_FORM.settings, enableComments: true },
        },
      },
    ]);
    expect(restored.step).toBe('upload');
    expect(restored.form).toMatchObject({ title: 'Brand Film', description: 'For review', template: 'pitch-template', password: '' });
    expect(restored.form.settings.enableComments).toBe(true);
  });

  it('starts with analytics on and every other feature off, no notification email', () => {
    expect(INITIAL_WIZARD_STATE.form.settings).toEqual({
      enableFavorites: false,
      enableComments: false,
      enableApprovals: false,
      enableAnalytics: true,
      enableNotifications: false,
      notificationEmail: '',
      slackWebhook: '',
    });
  });
});

describe('details validation', () => {
  const now = new Date(2026, 4, 12, 18, 30, 20);
  const form = { title: 'Wedding', description: 'Photos', expiryDate: '' };

  it('needs a title and a description that are not blank after trimming', () => {
    expect(validateDetails(form, now).canContinue).toBe(true);
    expect(validateDetails({ ...form, title: '   ' }, now)).toMatchObject({ canContinue: false, title: DETAILS_MESSAGES.title });
    expect(validateDetails({ ...form, description: '\n\t ' }, now)).toMatchObject({ canContinue: false, description: DETAILS_MESSAGES.description });
  });

  it('accepts an expiry from this minute on, refuses an earlier one', () => {
    expect(validateDetails({ ...form, expiryDate: '2026-05-12T18:30' }, now).canContinue).toBe(true);
    expect(validateDetails({ ...form, expiryDate: '2026-06-01T09:00' }, now).canContinue).toBe(true);
    expect(validateDetails({ ...form, expiryDate: '2026-05-12T18:29' }, now)).toMatchObject({ canContinue: false, expiryDate: DETAILS_MESSAGES.expiryPast });
    expect(validateDetails({ ...form, expiryDate: '2026-02-30T10:00' }, now)).toMatchObject({ canContinue: false, expiryDate: DETAILS_MESSAGES.expiryInvalid });
  });

  it('round-trips datetime-local values in local time and sends an instant', () => {
    expect(toDateTimeLocal(now)).toBe('2026-05-12T18:30');
    expect(parseDateTimeLocal('2026-05-12T18:30')?.getTime()).toBe(new Date(2026, 4, 12, 18, 30).getTime());
    expect(parseDateTimeLocal('2026-05-12')).toBeNull();
    expect(toExpiryInstant('2026-05-12T18:30')).toBe(new Date(2026, 4, 12, 18, 30).toISOString());
    expect(toExpiryInstant('')).toBe('');
  });

  it("words the badge 'Expires: {date}'", () => {
    expect(formatExpiryBadge('2026-05-12T18:30', 'en-GB')).toBe('Expires: 12 May 2026, 18:30');
    expect(formatExpiryBadge('')).toBeNull();
  });
});

describe('tips', () => {
  it('has eight distinct tips', () => {
    expect(WIZARD_TIPS).toHaveLength(8);
    expect(new Set(WIZARD_TIPS).size).toBe(8);
  });
});

describe('preview html', async () => {
  const { fillPreviewHtml, buildPreviewRequest } = await import('./preview-html.ts');

  it('swaps each placeholder for its own object URL, including ids that share a prefix', () => {
    const html = '<img src="/api/preview-file/file-1"><a href="/api/preview-file/file-10">x</a><img src="/api/preview-file/gone">';
    const urls = new Map([
      ['file-1', 'blob:http://app/1'],
      ['file-10', 'blob:http://app/10'],
    ]);
    expect(fillPreviewHtml(html, urls)).toBe('<img src="blob:http://app/1"><a href="blob:http://app/10">x</a><img src="/api/preview-file/gone">');
  });

  it('describes the draft and its files, with measured image sizes', () => {
    const request = buildPreviewRequest(
      { title: 'T', description: 'D', authorName: '', template: 'universal', settings: EMPTY_FORM.settings },
      [
        { id: 'file-1', file: new File(['abc'], 'a.jpg', { type: 'image/jpeg' }), group: null },
        { id: 'file-2', file: new File(['abcd'], 'b.jpg', { type: 'image/jpeg' }), group: 'Black' },
      ],
      new Map([['file-1', { width: 1200, height: 800 }]]),
    );
    expect(request.files).toEqual([
      { clientId: 'file-1', name: 'a.jpg', type: 'image/jpeg', size: 3, width: 1200, height: 800 },
      { clientId: 'file-2', name: 'b.jpg', type: 'image/jpeg', size: 4, group: 'Black' },
    ]);
  });
});

describe("the wizard's look", () => {
  it("follows the chosen template (its demo's look) until the creator changes it, then stays as chosen", () => {
    expect(INITIAL_WIZARD_STATE.form.look).toMatchObject({ style: 'nature', colorMode: 'auto', edited: false });
    const delivery = run([{ type: 'choose-template', template: 'client-delivery' }]);
    expect(delivery.form.look).toEqual({ style: 'minimal', colorMode: 'dark', heroLayout: 'minimal', visitorModeToggle: false, edited: false });
    const chosen = run([{ type: 'set-look', look: { colorMode: 'auto', visitorModeToggle: true } }], delivery);
    expect(chosen.form.look).toMatchObject({ style: 'minimal', colorMode: 'auto', visitorModeToggle: true, edited: true });
    // Another template keeps what the creator chose.
    expect(run([{ type: 'choose-template', template: 'event-template' }], chosen).form.look).toEqual(chosen.form.look);
  });

  it('is restored with an interrupted upload, or is the template’s for drafts saved before it was asked', () => {
    const { password: _password, look, ...form } = { ...EMPTY_FORM, template: 'pitch-template' as const };
    expect(run([{ type: 'restore-form', form }]).form.look).toMatchObject({ style: 'professional', colorMode: 'dark', edited: false });
    const kept = { ...look, style: 'elegant' as const, edited: true };
    expect(run([{ type: 'restore-form', form: { ...form, look: kept } }]).form.look).toEqual(kept);
  });

  it('goes to the preview as the creator chose it', () => {
    const form: TWizardState['form'] = { ...EMPTY_FORM, look: { ...EMPTY_FORM.look, style: 'creative', colorMode: 'dark', heroLayout: 'featured', edited: true } };
    const request = buildPreviewRequest(form, [], new Map());
    expect(request).toMatchObject({ style: 'creative', colorMode: 'dark', heroLayout: 'featured', visitorModeToggle: false });
    expect(request).not.toHaveProperty('edited');
  });
});
