/** The Site Title suggestion of the upload step (spec 4, 'Wizard'). */
import { titleFromFileName, titleFromFolderName } from '@dropsite/shared';

export interface TSiteTitleState {
  title: string;
  /** True once the creator has typed a title of their own; their words are never overwritten. */
  isTitleTyped: boolean;
}

/** A chosen file as the suggestion reads it: its name, and the folder the creator chose or dropped it in. */
export interface TTitleSource {
  name: string;
  /** The top folder of a folder upload ('Harper Wedding' for 'Harper Wedding/Ceremony/a.jpg'); absent for a loose file. */
  folder?: string | null;
}

// Names cameras and phones give on their own: 'DSC_0142', 'DSCF0142', 'IMG_1234', '_MG_0042',
// 'P1010001', 'PXL_20240501_101010', 'GOPR0001', 'MVI_0001', with a copy's '-2' or ' (1)' after.
const CAMERA_FILE =
  /^(?:_?(?:DSC[FN]?|_?MG|IMG|IMGP|MVI|MOV|VID|PXL|GOPR|GH\d{2}|GX\d{2}|DJI|CIMG|DCP|PICT|SAM|SDC|P)[_\- ]?\d[\d_\- ]*|\d[\d_\- ]*)(?:[_\- ]?(?:\(\d+\)|copy|edit(?:ed)?))*$/i;
// Folders cameras make on their cards: 'DCIM', '100CANON', '100MSDCF', '101ND850'.
const CAMERA_FOLDER = /^(?:DCIM|\d{3}[A-Z0-9_]{5})$/i;

/** Whether a file name (its extension aside) is one a camera or phone gave it, which says nothing about the shoot. */
export function isCameraFileName(name: string): boolean {
  return CAMERA_FILE.test(name.replace(/\.[^./\\]+$/, '').trim());
}

/**
 * The title a set of chosen files suggests: for a folder upload the folder's name; for a loose
 * file its name, unless a camera named it ('DSC_0142' would read 'DSC 0142'): then nothing.
 */
export function titleFromFiles(files: readonly TTitleSource[]): string {
  const first = files[0];
  if (!first) return '';
  if (first.folder) return CAMERA_FOLDER.test(first.folder.trim()) ? '' : titleFromFolderName(first.folder);
  return isCameraFileName(first.name) ? '' : titleFromFileName(first.name);
}

/**
 * The title to show after the chosen files changed: a title the creator typed stays as it is;
 * otherwise (empty or still our suggestion) it follows the first file, and clears
 * when no file is left.
 */
export function suggestSiteTitle(state: TSiteTitleState, files: readonly TTitleSource[]): string {
  if (state.isTitleTyped && state.title.trim() !== '') return state.title;
  return titleFromFiles(files);
}

/** A title typed by the creator counts as theirs unless they cleared the field. */
export function typeSiteTitle(value: string): TSiteTitleState {
  return { title: value, isTitleTyped: value.trim() !== '' };
}
