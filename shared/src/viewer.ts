/** Viewer choice (spec section 4): which viewer shows which files. */
import { GALLERY_THRESHOLDS } from './constants.ts';
import type { TFileKind } from './file-kind.ts';

export type TGalleryViewer = 'single' | 'grid' | 'masonry' | 'lightbox' | 'fallback';

/** Gallery viewer by image count: 1 single; 2-6 grid; 7-20 masonry; more than 20 lightbox; 0 fallback. */
export function chooseGalleryViewer(imageCount: number): TGalleryViewer {
  if (imageCount <= 0) return 'fallback';
  if (imageCount === GALLERY_THRESHOLDS.single) return 'single';
  if (imageCount <= GALLERY_THRESHOLDS.gridMax) return 'grid';
  if (imageCount <= GALLERY_THRESHOLDS.masonryMax) return 'masonry';
  return 'lightbox';
}

export type TViewerSection<F> =
  | { viewer: 'gallery'; layout: TGalleryViewer; files: F[] }
  | { viewer: 'pdf'; files: F[] }
  | { viewer: 'multi-pdf'; files: F[] }
  | { viewer: 'video' | 'archive' | 'presentation' | 'document' | 'audio'; files: F[] };

/** Groups a site's files into viewer sections: images into one gallery, every other file its own viewer. */
export function planViewerSections<F extends { kind: TFileKind }>(files: F[]): TViewerSection<F>[] {
  const sections: TViewerSection<F>[] = [];
  const images = files.filter((f) => f.kind === 'image');
  const pdfs = files.filter((f) => f.kind === 'pdf');
  if (images.length > 0) sections.push({ viewer: 'gallery', layout: chooseGalleryViewer(images.length), files: images });
  if (pdfs.length > 1) sections.push({ viewer: 'multi-pdf', files: pdfs });
  else if (pdfs.length === 1) sections.push({ viewer: 'pdf', files: pdfs });
  for (const f of files) {
    switch (f.kind) {
      case 'image':
      case 'pdf':
        break;
      case 'video':
      case 'archive':
      case 'presentation':
      case 'audio':
        sections.push({ viewer: f.kind, files: [f] });
        break;
      default:
        sections.push({ viewer: 'document', files: [f] });
    }
  }
  return sections;
}
