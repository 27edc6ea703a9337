/** Small, pure helpers the page uses to turn a TSiteRenderModel into text. No side effects, no clock. */
import { DISPLAY_IMAGE_SIZE, formatBytes, getExtension, isShownInBrowserAs, type TSiteFile, type TSiteRenderModel, type TSiteSettingValue } from '@dropsite/shared';

/** The name the footer invites visitors to contact. */
export function contactName(site: Pick<TSiteRenderModel, 'authorName' | 'title'>): string {
  return site.authorName.trim() || site.title.trim();
}

/** A meta description: the description, else the sub-line, cut at a word boundary near `max` characters. */
export function metaDescription(site: Pick<TSiteRenderModel, 'description' | 'subLine' | 'title' | 'authorName' | 'files'>, max = 160): string {
  const source = (site.description || site.subLine).replace(/\s+/g, ' ').trim();
  const text = source || defaultDescription(site);
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?-]+$/, '')}…`;
}

function defaultDescription(site: Pick<TSiteRenderModel, 'title' | 'authorName' | 'files'>): string {
  const count = site.files.length;
  const files = `${count} ${count === 1 ? 'file' : 'files'}`;
  return site.authorName.trim() ? `${files} shared by ${site.authorName.trim()}.` : `${files} shared with Dropsite.`;
}

const BY_NAME = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * The files in the order the creator chose for the page: as uploaded, by name ('photo-2' before
 * 'photo-10'), or newest first. Files uploaded together keep their order.
 */
export function orderSiteFiles<T extends Pick<TSiteFile, 'name' | 'uploadedAt'>>(files: readonly T[], order: TSiteSettingValue<'fileOrder'> = 'upload'): T[] {
  if (order === 'name') return [...files].sort((a, b) => BY_NAME.compare(a.name, b.name));
  if (order === 'newest') return [...files].sort((a, b) => Date.parse(b.uploadedAt) - Date.parse(a.uploadedAt));
  return [...files];
}

/** True when a contact email looks like one address (so a mailto: link cannot carry anything else). */
export function isPlainEmail(email: string): boolean {
  return /^[^\s@<>"'(),;:\\[\]]+@[^\s@<>"'(),;:\\[\]]+\.[^\s@<>"'(),;:\\[\]]+$/.test(email.trim());
}

/** '3 files', '1 image'. */
export function countLabel(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

export function totalSize(files: Pick<TSiteFile, 'size'>[]): string {
  return formatBytes(files.reduce((sum, f) => sum + f.size, 0));
}

/** The short type label shown beside a file: its extension in capitals, else its kind. */
export function typeLabel(file: Pick<TSiteFile, 'name' | 'kind'>): string {
  const ext = getExtension(file.name);
  if (ext && ext.length <= 5) return ext.toUpperCase();
  return file.kind === 'other' ? 'File' : file.kind.charAt(0).toUpperCase() + file.kind.slice(1);
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** An ISO date as 'March 4, 2025' (UTC, so the same input always gives the same text). */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : DATE_FORMAT.format(date);
}

/**
 * The url that shows an image large: its preview when the browser can display it as the API serves
 * it (`?mode=preview` answers the original), else its thumbnail (TIFF, HEIC, ... only download).
 */
export function largeImageUrl(file: Pick<TSiteFile, 'name' | 'url' | 'thumbnailUrl'>): string {
  return isShownInBrowserAs(file.name, 'image') || !file.thumbnailUrl ? file.url : file.thumbnailUrl;
}

/** Images the gallery can show: those with a derived thumbnail. The rest are only in the file list. */
export function previewableImages(files: TSiteFile[]): TSiteFile[] {
  return files.filter((f) => f.kind === 'image' && f.thumbnailUrl !== null && f.thumbnailWidth !== null && f.thumbnailHeight !== null);
}

/** Width of the display copy the API serves as an image's preview: the original fitted into DISPLAY_IMAGE_SIZE. */
export function displayImageWidth(file: Pick<TSiteFile, 'width' | 'height'>): number | null {
  if (!file.width || !file.height) return null;
  const scale = Math.min(1, DISPLAY_IMAGE_SIZE / Math.max(file.width, file.height));
  return Math.round(file.width * scale);
}

/** A large picture's `srcset`: the thumbnail, then the display copy when that is wider (none when it is not). */
function largeImageSrcset(file: TSiteFile): string | undefined {
  const display = displayImageWidth(file);
  return display && file.thumbnailUrl && display > (file.thumbnailWidth ?? 0) ? `${file.thumbnailUrl} ${file.thumbnailWidth}w, ${largeImageUrl(file)} ${display}w` : undefined;
}

/** The `<img>` of a picture shown across the page (a phase, a carousel slide): sized before it loads, `isLazy` below the first screen. */
export function largeImageAttributes(file: TSiteFile, isLazy: boolean) {
  return {
    src: largeImageUrl(file),
    srcset: largeImageSrcset(file),
    sizes: '(min-width: 1200px) 1100px, 100vw',
    width: file.width ?? file.thumbnailWidth,
    height: file.height ?? file.thumbnailHeight,
    alt: file.name,
    loading: isLazy ? 'lazy' : undefined,
    decoding: 'async',
  };
}

export type TContactNetwork = 'website' | 'instagram' | 'twitter' | 'linkedin' | 'github';

const NETWORK_HOSTS: Record<Exclude<TContactNetwork, 'website'>, string> = {
  instagram: 'https://instagram.com/',
  twitter: 'https://x.com/',
  linkedin: 'https://www.linkedin.com/in/',
  github: 'https://github.com/',
};

/**
 * A contact link safe to put in an href: http(s) URLs as they are, a bare handle ('@mira',
 * 'mira') on its network, a bare domain as https. Anything else (javascript:, data:, spaces) is dropped.
 */
export function contactHref(network: TContactNetwork, value: string): string | null {
  const text = value.trim();
  if (!text || /\s/.test(text)) return null;
  if (/^https?:\/\//i.test(text)) {
    try {
      const url = new URL(text);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
    } catch {
      return null;
    }
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return null;
  if (network === 'website' || /^[\w-]+(\.[\w-]+)+(\/.*)?$/.test(text)) {
    return /^[\w-]+(\.[\w-]+)+(\/[^\s]*)?$/.test(text) ? `https://${text}` : null;
  }
  const handle = text.replace(/^@/, '');
  return /^[\w.-]{1,100}$/.test(handle) ? `${NETWORK_HOSTS[network]}${handle}` : null;
}

/**
 * Whether the page ends with the list of all files: when there is nothing yet (its empty state),
 * when several viewers share the page (an index), or when some images have no preview (they are
 * in no viewer, and the list is where they can be downloaded one by one).
 */
export function needsFileIndex(files: TSiteFile[], viewerSectionCount: number): boolean {
  if (files.length === 0 || viewerSectionCount > 1) return true;
  const images = files.filter((f) => f.kind === 'image');
  const previewable = previewableImages(images).length;
  return previewable > 0 && previewable < images.length;
}
