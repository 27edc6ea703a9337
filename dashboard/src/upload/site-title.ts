/** The Site Title suggestion of the upload step (spec 4, 'Wizard'). */
import { titleFromFileName } from '@dropsite/shared';

export interface TSiteTitleState {
  title: string;
  /** True once the creator has typed a title of their own; their words are never overwritten. */
  isTitleTyped: boolean;
}

/**
 * The title to show after the chosen files changed: a title the creator typed stays as it is;
 * otherwise (empty or still our suggestion) it follows the first file's name, and clears
 * when no file is left.
 */
export function suggestSiteTitle(state: TSiteTitleState, files: readonly { name: string }[]): string {
  if (state.isTitleTyped && state.title.trim() !== '') return state.title;
  const first = files[0];
  return first ? titleFromFileName(first.name) : '';
}

/** A title typed by the creator counts as theirs unless they cleared the field. */
export function typeSiteTitle(value: string): TSiteTitleState {
  return { title: value, isTitleTyped: value.trim() !== '' };
}
