/** The wizard's steps, draft and transitions (spec 4, 'Wizard'), as a pure reducer. */
import { DEFAULT_SITE_SETTINGS, EMPTY_CONTACT_INFO, TEMPLATE_LOOKS, type TContactField, type TSiteLook, type TSiteSettings, type TTemplateId } from '@dropsite/shared';
import { addFiles, findDuplicates, topFolderOf, type TChosenFile, type TPickedFile } from '../upload/chosen-files.ts';
import { suggestSiteTitle } from '../upload/site-title.ts';

export const WIZARD_STEPS = ['upload', 'template', 'details', 'settings', 'preview', 'success'] as const;
export type TWizardStep = (typeof WIZARD_STEPS)[number];

/** The look chosen in the wizard; until the creator changes it, it follows the template (its demo's look). */
export interface TWizardLook extends TSiteLook {
  edited: boolean;
}

/** A template's look, not yet changed by the creator. */
export function templateWizardLook(template: TTemplateId): TWizardLook {
  return { ...TEMPLATE_LOOKS[template], edited: false };
}

/** The spec's upload form (section 3), as the fields hold it. */
export interface TWizardForm {
  title: string;
  description: string;
  authorName: string;
  password: string;
  /** datetime-local text ('2026-05-12T18:00') or ''. */
  expiryDate: string;
  template: TTemplateId;
  look: TWizardLook;
  settings: TSiteSettings;
  /** The footer's contact details (spec 2.4), as typed; each one optional. */
  contactInfo: Record<TContactField, string>;
}

export interface TWizardState {
  step: TWizardStep;
  files: TChosenFile[];
  form: TWizardForm;
  /** Files of the last addition that did not fit in one site. */
  overLimit: number;
  /** The switches the creator set themselves: a change of template no longer moves them. */
  touchedSettings: readonly TTemplateSettingKey[];
}

/** The switches whose starting position depends on the template. */
type TTemplateSettingKey = 'enableFavorites';

// Templates made for a client to pick from (a shoot's proofs, a delivery to approve): favourites start on.
const PICKING_TEMPLATES: ReadonlySet<TTemplateId> = new Set<TTemplateId>(['photo-gallery', 'client-delivery']);

/** Where a template's switches start before the creator touches them. */
export function templateDefaultSettings(template: TTemplateId): Pick<TSiteSettings, TTemplateSettingKey> {
  return { enableFavorites: PICKING_TEMPLATES.has(template) || DEFAULT_SITE_SETTINGS.enableFavorites };
}

export const EMPTY_FORM: TWizardForm = {
  title: '',
  description: '',
  authorName: '',
  password: '',
  expiryDate: '',
  template: 'universal',
  look: templateWizardLook('universal'),
  settings: { ...DEFAULT_SITE_SETTINGS },
  contactInfo: { ...EMPTY_CONTACT_INFO },
};

export const INITIAL_WIZARD_STATE: TWizardState = { step: 'upload', files: [], form: EMPTY_FORM, overLimit: 0, touchedSettings: [] };

export type TWizardAction =
  | { type: 'add-files'; files: readonly TPickedFile[]; createId: () => string }
  | { type: 'remove-file'; id: string }
  | { type: 'remove-duplicates' }
  | { type: 'clear-files' }
  | { type: 'continue' }
  | { type: 'back' }
  | { type: 'edit'; field: 'title' | 'description' | 'authorName' | 'password' | 'expiryDate'; value: string }
  | { type: 'edit-contact'; field: TContactField; value: string }
  | { type: 'choose-template'; template: TTemplateId }
  | { type: 'set-look'; look: Partial<TSiteLook> }
  | { type: 'set-setting'; settings: Partial<TSiteSettings> }
  | { type: 'publish' }
  | { type: 'publish-failed' }
  | { type: 'create-another' }
  | { type: 'restore-form'; form: Omit<TWizardForm, 'password' | 'contactInfo' | 'look'> & { contactInfo?: TWizardForm['contactInfo']; look?: TWizardLook } };

const TEMPLATE_SETTING_KEYS: readonly TTemplateSettingKey[] = ['enableFavorites'];

/** Where Back goes from each step (spec 4): preview returns to details. */
const BACK: Partial<Record<TWizardStep, TWizardStep>> = { template: 'upload', details: 'template', settings: 'details', preview: 'details' };
const NEXT: Partial<Record<TWizardStep, TWizardStep>> = { upload: 'template', template: 'details', details: 'settings', settings: 'preview' };

/** Whether the creator may leave the details step ('Configure Features'). */
export type TCanContinueDetails = (form: TWizardForm) => boolean;

export function reduceWizard(state: TWizardState, action: TWizardAction, canContinueDetails: TCanContinueDetails = () => true): TWizardState {
  switch (action.type) {
    case 'add-files': {
      const { files, overLimit } = addFiles(state.files, action.files, action.createId);
      return { ...state, files, overLimit };
    }
    case 'remove-file':
      return { ...state, files: state.files.filter((f) => f.id !== action.id), overLimit: 0 };
    case 'remove-duplicates': {
      const duplicates = findDuplicates(state.files);
      return { ...state, files: state.files.filter((f) => !duplicates.has(f.id)), overLimit: 0 };
    }
    case 'clear-files':
      return { ...state, files: [], overLimit: 0 };
    case 'continue': {
      const next = NEXT[state.step];
      if (!next) return state;
      if (state.step === 'upload') {
        if (state.files.length === 0) return state;
        // Spec 4: an empty title is filled from the first file (or its folder) on the way to the template step.
        const title =
          state.form.title.trim() === ''
            ? suggestSiteTitle(
                { title: '', isTitleTyped: false },
                state.files.map((f) => ({ name: f.file.name, folder: topFolderOf(f) })),
              )
            : state.form.title;
        return { ...state, step: next, form: { ...state.form, title } };
      }
      if (state.step === 'details' && !canContinueDetails(state.form)) return state;
      return { ...state, step: next };
    }
    case 'back': {
      const previous = BACK[state.step];
      return previous ? { ...state, step: previous } : state;
    }
    case 'edit':
      return { ...state, form: { ...state.form, [action.field]: action.value } };
    case 'edit-contact':
      return { ...state, form: { ...state.form, contactInfo: { ...state.form.contactInfo, [action.field]: action.value } } };
    case 'choose-template': {
      // The template's starting switches and look follow the choice, except what the creator set.
      const defaults = Object.entries(templateDefaultSettings(action.template)).filter(([key]) => !state.touchedSettings.includes(key as TTemplateSettingKey));
      return {
        ...state,
        form: {
          ...state.form,
          template: action.template,
          settings: { ...state.form.settings, ...Object.fromEntries(defaults) },
          look: state.form.look.edited ? state.form.look : templateWizardLook(action.template),
        },
      };
    }
    case 'set-look':
      return { ...state, form: { ...state.form, look: { ...state.form.look, ...action.look, edited: true } } };
    case 'set-setting': {
      const touched = TEMPLATE_SETTING_KEYS.filter((key) => key in action.settings && !state.touchedSettings.includes(key));
      return {
        ...state,
        touchedSettings: [...state.touchedSettings, ...touched],
        form: { ...state.form, settings: { ...state.form.settings, ...action.settings } },
      };
    }
    case 'publish':
      return state.step === 'preview' && state.files.length > 0 ? { ...state, step: 'success' } : state;
    case 'publish-failed':
      // Spec 4: back to the upload step; the files and the form stay as they were.
      return { ...state, step: 'upload' };
    case 'create-another':
      return INITIAL_WIZARD_STATE;
    case 'restore-form':
      // An interrupted upload's form, after a reload; the password is never kept, so it is asked again.
      // Its switches are the creator's choices: a change of template leaves them as they are.
      return {
        ...state,
        touchedSettings: TEMPLATE_SETTING_KEYS,
        form: {
          ...action.form,
          password: '',
          settings: { ...DEFAULT_SITE_SETTINGS, ...action.form.settings },
          contactInfo: { ...EMPTY_CONTACT_INFO, ...action.form.contactInfo },
          look: action.form.look ?? templateWizardLook(action.form.template),
        },
      };
  }
}
