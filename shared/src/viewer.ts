/**
 * Viewer choice (spec section 4, with decisions 3): which viewer shows which files. One vocabulary
 * for the whole product: the sections planned here, the site template's registry of section
 * components (a record over TViewer, so a new viewer is a type error until it has a component) and
 * the `data-viewer` of the page all speak it.
 */
import { GALLERY_THRESHOLDS } from './constants.ts';
import { isShownInBrowserAs, type TFileKind } from './file-types.ts';
import type { TPublicFileDetails } from './derived.ts';

/** The viewers of the visitor site: the gallery and the multi-PDF browser take several files, the others one each. */
export const VIEWERS = ['gallery', 'multi-pdf', 'pdf', 'text', 'video', 'audio', 'archive', 'font', 'download'] as const;
export type TViewer = (typeof VIEWERS)[number];
/** The viewers that show one file. */
export type TFileViewer = Exclude<TViewer, 'gallery' | 'multi-pdf'>;

export type TGalleryViewer = 'single' | 'grid' | 'masonry' | 'lightbox' | 'fallback';

/** Gallery viewer by image count: 1 single; 2-6 grid; 7-20 masonry; more than 20 lightbox; 0 fallback. */
export function chooseGalleryViewer(imageCount: number): TGalleryViewer {
  if (imageCount <= 0) return 'fallback';
  if (imageCount === GALLERY_THRESHOLDS.single) return 'single';
  if (imageCount <= GALLERY_THRESHOLDS.gridMax) return 'grid';
  if (imageCount <= GALLERY_THRESHOLDS.masonryMax) return 'masonry';
  return 'lightbox';
}

/** What the viewer choice reads of a file. */
export interface TViewerFile {
  name: string;
  kind: TFileKind;
  details: Pick<TPublicFileDetails, 'pdfUrl' | 'previewUnavailable' | 'archive' | 'text'>;
}

/**
 * The viewer of one non-image file, from its kind, its type and what the builder derived:
 * presentations and office documents through their converted PDF, a download card (with the
 * reason) when nothing can be shown.
 */
export function chooseFileViewer(file: TViewerFile): TFileViewer {
  switch (file.kind) {
    case 'pdf':
      return 'pdf';
    case 'presentation':
      return file.details.pdfUrl ? 'pdf' : 'download';
    case 'video':
      return isShownInBrowserAs(file.name, 'video') && !file.details.previewUnavailable ? 'video' : 'download';
    case 'audio':
      return isShownInBrowserAs(file.name, 'audio') ? 'audio' : 'download';
    case 'archive':
      return file.details.archive ? 'archive' : 'download';
    case 'font':
      return isShownInBrowserAs(file.name, 'font') ? 'font' : 'download';
    case 'image':
    case 'document':
    case 'other':
      if (file.details.pdfUrl) return 'pdf';
      if (file.details.text || isTextShownInBrowser(file)) return 'text';
      return 'download';
    default:
      return file.kind satisfies never;
  }
}

/** True for a text file the API serves inline as plain text, so a viewer can read all of it. */
export function isTextShownInBrowser(file: Pick<TViewerFile, 'name'>): boolean {
  return isShownInBrowserAs(file.name, 'document');
}

export type TViewerSection<F> = { viewer: 'gallery'; layout: TGalleryViewer; files: F[] } | { viewer: 'multi-pdf'; files: F[] } | { viewer: TFileViewer; files: F[] };

/** Groups a site's files into viewer sections: images into one gallery, PDFs together when several, every other file its own viewer. */
export function planViewerSections<F extends TViewerFile>(files: F[]): TViewerSection<F>[] {
  const sections: TViewerSection<F>[] = [];
  const images = files.filter((f) => f.kind === 'image');
  const pdfs = files.filter((f) => f.kind === 'pdf');
  if (images.length > 0) sections.push({ viewer: 'gallery', layout: chooseGalleryViewer(images.length), files: images });
  if (pdfs.length > 1) sections.push({ viewer: 'multi-pdf', files: pdfs });
  else if (pdfs.length === 1) sections.push({ viewer: 'pdf', files: pdfs });
  for (const f of files) {
    if (f.kind !== 'image' && f.kind !== 'pdf') sections.push({ viewer: chooseFileViewer(f), files: [f] });
  }
  return sections;
}
