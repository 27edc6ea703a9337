/**
 * What each template does with the same files: the hero it opens with, the blocks of the page in
 * order, and the gallery's treatment. Pure: the page (`pages/[...slug].astro`) renders the plan,
 * the tests read it. Every template shows every file somewhere; only order and presentation change.
 */
import type { TSiteFile, TSiteRenderModel, TTemplateId } from '@dropsite/shared';
import { previewableImages } from './site.ts';

/** The hero treatment (`data-hero-kind` on the hero). The four hero layouts still apply to each. */
export type THeroKind = 'standard' | 'cover' | 'profile' | 'poster' | 'deck' | 'brief' | 'delivery';

/** A gallery's presentation: the viewer chosen by count (universal), or one the template forces. */
export type TGalleryTreatment = 'auto' | 'masonry' | 'grid';

type TPageBlock =
  /** Images in the gallery island; `filter` adds the category chips when the images have groups. */
  | { block: 'gallery'; files: TSiteFile[]; heading: string; treatment: TGalleryTreatment; filter: boolean }
  /** Files in their viewers (planViewerSections), under an optional heading of the template's. */
  | { block: 'viewers'; files: TSiteFile[]; heading: string | null; id: string }
  /** The product showcase: a carousel of the images with colour/variant chips from their groups. */
  | { block: 'carousel'; files: TSiteFile[] }
  /** The pitch deck (first PDF or converted presentation/document), full width. */
  | { block: 'deck'; file: TSiteFile }
  /** The case study's brief: the description, as a pull quote. */
  | { block: 'brief'; text: string }
  /** The case study's phases: every file in name order, numbered. */
  | { block: 'phases'; files: TSiteFile[] }
  /** The list of every file with its size and Download link. */
  | { block: 'files'; heading: string; lead: boolean };

interface TTemplatePlan {
  template: TTemplateId;
  hero: THeroKind;
  blocks: TPageBlock[];
}

const byName = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Files in natural name order ('phase-2' before 'phase-10'), the order a creator numbers them in. */
export function sortByName<F extends Pick<TSiteFile, 'name'>>(files: readonly F[]): F[] {
  return [...files].sort((a, b) => byName.compare(a.name, b.name));
}

/**
 * The categories of a set of files: their groups in first-seen order. Empty when the groups do not
 * split the files (no groups at all, or every file in the same one): then there is nothing to choose.
 */
export function fileGroups(files: readonly Pick<TSiteFile, 'group'>[]): string[] {
  const groups: string[] = [];
  for (const file of files) {
    const group = file.group?.trim();
    if (group && !groups.includes(group)) groups.push(group);
  }
  const ungrouped = files.some((f) => !f.group?.trim());
  return groups.length > 1 || (groups.length === 1 && ungrouped) ? groups : [];
}

/** A file's group as the chips name it (trimmed), or null. */
export function groupOf(file: Pick<TSiteFile, 'group'>): string | null {
  return file.group?.trim() || null;
}

const isImage = (f: TSiteFile) => f.kind === 'image';
/** A document a viewer can page through: a PDF, or a presentation or document converted to one. */
const isDeck = (f: TSiteFile) => f.kind === 'pdf' || ((f.kind === 'presentation' || f.kind === 'document') && Boolean(f.details.pdfUrl));
/** What portfolio-resume offers as 'Download Resume'. */
export function resumeFile(files: readonly TSiteFile[]): TSiteFile | undefined {
  return files.find((f) => f.kind === 'pdf') ?? files.find((f) => f.kind === 'document');
}

/**
 * The page of a template. `needsIndex` is the universal rule for the closing file list
 * (lib/site.ts needsFileIndex), which the other templates keep where they have no list of their own.
 */
export function planTemplatePage(site: Pick<TSiteRenderModel, 'template' | 'files' | 'description' | 'settings'>, needsIndex: boolean): TTemplatePlan {
  const files = site.files;
  const images = files.filter(isImage);
  const others = files.filter((f) => !isImage(f));
  const hasPreviews = previewableImages(images).length > 0;
  const index = (heading = 'All files'): TPageBlock[] => (needsIndex ? [{ block: 'files', heading, lead: false }] : []);
  const gallery = (heading: string, treatment: TGalleryTreatment, filter: boolean): TPageBlock[] =>
    images.length > 0 ? [{ block: 'gallery', files: images, heading, treatment, filter }] : [];
  const viewers = (list: TSiteFile[], heading: string | null, id: string): TPageBlock[] => (list.length > 0 ? [{ block: 'viewers', files: list, heading, id }] : []);

  switch (site.template) {
    case 'photo-gallery':
      return {
        template: site.template,
        hero: hasPreviews ? 'cover' : 'standard',
        blocks: [...gallery('Gallery', 'masonry', true), ...viewers(others, 'More files', 'more-files'), ...index()],
      };
    case 'portfolio-resume':
      return {
        template: site.template,
        hero: 'profile',
        blocks: [...gallery('Selected work', 'grid', true), ...viewers(others, 'Resume & documents', 'documents'), ...index()],
      };
    case 'event-template':
      return {
        template: site.template,
        hero: hasPreviews ? 'poster' : 'standard',
        blocks: [...gallery('Gallery of the day', 'auto', true), ...viewers(others, 'Programme & schedule', 'programme'), ...index()],
      };
    case 'pitch-template': {
      const deck = files.find(isDeck);
      const rest = files.filter((f) => f !== deck);
      return {
        template: site.template,
        hero: 'deck',
        blocks: [...(deck ? [{ block: 'deck', file: deck } as const] : []), ...viewers(rest, 'Supporting material', 'supporting'), ...index()],
      };
    }
    case 'product-template': {
      const shown = previewableImages(images);
      const unshown = images.filter((f) => !shown.includes(f));
      // The carousel has no engagement controls: with them on, the images are also in a gallery, where each has its own.
      const { enableFavorites, enableComments, enableApprovals } = site.settings;
      const engaged = shown.length > 0 && (enableFavorites || enableComments || enableApprovals);
      return {
        template: site.template,
        hero: 'standard',
        blocks: [
          ...(shown.length > 0 ? [{ block: 'carousel', files: shown } as const] : []),
          ...viewers([...unshown, ...others], 'Specifications', 'specifications'),
          ...(engaged ? [{ block: 'gallery', files: shown, heading: 'All images', treatment: 'grid', filter: true } as const] : []),
          ...index(),
        ],
      };
    }
    case 'case-study-template': {
      const brief = site.description.trim();
      return {
        template: site.template,
        hero: 'brief',
        blocks: [
          ...(brief ? [{ block: 'brief', text: brief } as const] : []),
          ...(files.length > 0 ? [{ block: 'phases', files: sortByName(files) } as const] : []),
          { block: 'files', heading: 'Outcome & files', lead: false },
        ],
      };
    }
    case 'client-delivery':
      return {
        template: site.template,
        hero: 'delivery',
        blocks: [{ block: 'files', heading: 'Files in this delivery', lead: true }, ...viewers(files, 'Previews', 'previews')],
      };
    default:
      return { template: 'universal', hero: 'standard', blocks: [...viewers(files, null, 'viewers'), ...index()] };
  }
}
