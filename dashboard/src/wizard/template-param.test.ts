import { describe, expect, it } from 'vitest';
import { templateFromSearch } from './template-param.ts';
import { INITIAL_WIZARD_STATE, reduceWizard } from './wizard-state.ts';

describe('templateFromSearch', () => {
  it('reads a known template id from the query', () => {
    expect(templateFromSearch('?template=photo-gallery')).toBe('photo-gallery');
    expect(templateFromSearch('?utm_source=x&template=client-delivery')).toBe('client-delivery');
  });

  it('ignores a missing, empty or unknown template', () => {
    expect(templateFromSearch('')).toBeNull();
    expect(templateFromSearch('?template=')).toBeNull();
    expect(templateFromSearch('?template=Photo-Gallery')).toBeNull();
    expect(templateFromSearch('?template=../universal')).toBeNull();
    expect(templateFromSearch('?other=photo-gallery')).toBeNull();
  });

  it('gives the wizard a template it starts with, still on the upload step', () => {
    const template = templateFromSearch('?template=pitch-template');
    expect(template).not.toBeNull();
    const state = reduceWizard(INITIAL_WIZARD_STATE, { type: 'choose-template', template: template! });
    expect(state.step).toBe('upload');
    expect(state.form.template).toBe('pitch-template');
  });
});
