import { describe, expect, it } from 'vitest';
import { NEW_SITE_SETTINGS } from '@dropsite/testkit/dashboard/fixtures';
import { DETAILS_MESSAGES, formatExpiryBadge, parseDateTimeLocal, toDateTimeLocal, toExpiryInstant, validateDetails } from './details-validation.ts';
import { EMPTY_FORM, INITIAL_WIZARD_STATE, reduceWizard, templateDefaultSettings, type TWizardAction, type TWizardState } from './wizard-state.ts';
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

  it("takes a folder upload's title from the folder, and leaves a camera's file name out", () => {
    const fromFolder = run([
      { type: 'add-files', files: [{ file: file('DSC_0142.jpg'), group: 'Ceremony', folderPath: 'harper-cole_wedding/Ceremony' }], createId },
      { type: 'continue' },
    ]);
    expect(fromFolder.form.title).toBe('Harper Cole Wedding');
    const fromCamera = run([{ type: 'add-files', files: [picked('DSC_0142.jpg'), picked('Contract.pdf')], createId }, { type: 'continue' }]);
    expect(fromCamera.step).toBe('template');
    expect(fromCamera.form.title).toBe('');
  });

  it('removes every later copy of a file added twice in one go, keeping the first', () => {
    const a = file('a.jpg');
    const state = run([
      { type: 'add-files', files: [{ file: a, group: null }, picked('b.jpg')], createId },
      {
        type: 'add-files',
        files: [
          { file: a, group: null },
          { file: a, group: null },
        ],
        createId,
      },
      { type: 'remove-duplicates' },
    ]);
    expect(state.files.map((f) => f.file.name)).toEqual(['a.jpg', 'b.jpg']);
  });

  it('keeps a title the creator already has', () => {
    const state = run([{ type: 'add-files', files: [picked('a.jpg')], createId }, { type: 'edit', field: 'title', value: 'Anna & Tom' }, { type: 'continue' }]);
    expect(state.form.title).toBe('Anna & Tom');
  });

  it('walks forward upload → template → details → settings → preview → success', () => {
    let state = run([{ type: 'add-files', files: [picked('a.jpg')], createId }, { type: 'continue' }, { type: 'continue' }]);
    expect(state.step).toBe('details');
    // 'Configure Features' needs a title; the description may stay empty.
    state = run([{ type: 'edit', field: 'title', value: ' ' }, { type: 'continue' }], state);
    expect(state.step).toBe('details');
    state = run([{ type: 'edit', field: 'title', value: 'For the couple' }, { type: 'continue' }, { type: 'continue' }, { type: 'publish' }], state);
    expect(state.form.description).toBe('');
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
      touchedSettings: [],
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
    expect(INITIAL_WIZARD_STATE.form.settings).toEqual(NEW_SITE_SETTINGS);
  });
});

describe('switches that follow the template', () => {
  it('turns favourites on for the templates made for picking, off for the others', () => {
    expect(templateDefaultSettings('photo-gallery').enableFavorites).toBe(true);
    expect(templateDefaultSettings('client-delivery').enableFavorites).toBe(true);
    expect(templateDefaultSettings('universal').enableFavorites).toBe(false);
    expect(templateDefaultSettings('pitch-template').enableFavorites).toBe(false);
  });

  it('moves favourites with each template choice until the creator sets the switch', () => {
    let state = run([{ type: 'choose-template', template: 'photo-gallery' }]);
    expect(state.form.settings.enableFavorites).toBe(true);
    state = run([{ type: 'choose-template', template: 'pitch-template' }], state);
    expect(state.form.settings.enableFavorites).toBe(false);
    state = run(
      [
        { type: 'choose-template', template: 'client-delivery' },
        { type: 'set-setting', settings: { enableFavorites: false } },
      ],
      state,
    );
    expect(state.form.settings.enableFavorites).toBe(false);
    state = run([{ type: 'choose-template', template: 'photo-gallery' }], state);
    expect(state.form.settings.enableFavorites).toBe(false);
    // Another switch leaves favourites free to follow.
    const other = run([
      { type: 'set-setting', settings: { enableComments: true } },
      { type: 'choose-template', template: 'photo-gallery' },
    ]);
    expect(other.form.settings).toMatchObject({ enableComments: true, enableFavorites: true });
  });

  it('keeps the switches of a restored form when the template changes', () => {
    const saved = { ...EMPTY_FORM, template: 'universal' as const, settings: { ...EMPTY_FORM.settings, enableFavorites: false } };
    const state = run([
      { type: 'restore-form', form: saved },
      { type: 'choose-template', template: 'photo-gallery' },
    ]);
    expect(state.form.settings.enableFavorites).toBe(false);
  });

  it("starts over with the universal template's switches after 'Create Another Site'", () => {
    const state = run([{ type: 'choose-template', template: 'photo-gallery' }, { type: 'set-setting', settings: { enableFavorites: true } }, { type: 'create-another' }]);
    expect(state.touchedSettings).toEqual([]);
    expect(state.form.settings.enableFavorites).toBe(false);
  });
});

describe('details validation', () => {
  const now = new Date(2026, 4, 12, 18, 30, 20);
  const form = { title: 'Wedding', description: 'Photos', expiryDate: '' };

  it('needs a title that is not blank after trimming; the description is optional', () => {
    expect(validateDetails(form, now).canContinue).toBe(true);
    expect(validateDetails({ ...form, title: '   ' }, now)).toMatchObject({ canContinue: false, title: DETAILS_MESSAGES.title });
    const withoutDescription = { ...form, description: '' };
    const blankDescription = { ...form, description: '\n\t ' };
    expect(validateDetails(withoutDescription, now).canContinue).toBe(true);
    expect(validateDetails(blankDescription, now).canContinue).toBe(true);
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
