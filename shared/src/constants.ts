/** Business constants from the specifications (section 9 of each), used as written. */

export const GALLERY_THRESHOLDS = { single: 1, gridMax: 6, masonryMax: 20 } as const;
export const LIGHTBOX_PAGE_SIZE = 20;
export const COMMENT_LIST_HEIGHT_PX = 240;

export const PDF_ZOOM = { start: 1, step: 1.2, min: 0.5, max: 3 } as const;
export const TEXT_VIEWER = { defaultFontSize: 14, minFontSize: 10, maxFontSize: 24, step: 2, cardLines: 12, cardLineChars: 50 } as const;
export const VIDEO = { seekSeconds: 10, defaultVolume: 75, speeds: [0.5, 0.75, 1, 1.25, 1.5, 2] } as const;

export const CHUNK_SIZE = 10_485_760;
export const CHUNK_PARALLELISM = 3;
export const CHUNK_RETRY_ATTEMPTS = 3;
export const MODE_THRESHOLDS = {
  fileChunked: 52_428_800,
  fileDirectChunked: 104_857_600,
  totalDirect: 104_857_600,
  totalDirectChunked: 209_715_200,
} as const;

export const OPTIMIZATION_POLL = { firstMs: 1000, everyMs: 2000, maxPolls: 30 } as const;
export const TIP_ROTATION_MS = 4000;
export const THUMBNAIL_SIZE = 300;
export const DISPLAY_IMAGE_SIZE = 1600;
export const QR_CODE = { width: 256, margin: 2 } as const;
export const COPY_CONFIRMATION_MS = 2000;
export const MOBILE_BREAKPOINT_PX = 768;

/**
 * How long a browser that published without an account can follow and manage its sites. The sites
 * themselves stay online after it (until deleted or their own expiry date) and can be claimed later.
 */
export const ANONYMOUS_WINDOW_DAYS = 7;
export const ANONYMOUS_WARNING_HOURS = 24;

/** Default of EXPIRED_SITE_GRACE_DAYS: an expired site's files and data are removed this many days after it expires. */
export const EXPIRED_SITE_GRACE_DAYS = 7;
/** A creator's sign-in session ends after this many days without use. */
export const SIGN_IN_SESSION_DAYS = 30;
/** A visitor id is honoured at most this many days after its cookie was issued (the longest a browser keeps a cookie). */
export const VISITOR_ID_MAX_AGE_DAYS = 400;

/** Slugs are random, url-safe and at least this long. */
export const SLUG_LENGTH = 10;

/** Limits enforced by the server on every upload. */
export const UPLOAD_LIMITS = {
  maxFilesPerSite: 500,
  maxFileNameLength: 255,
  maxTitleLength: 200,
  maxDescriptionLength: 5000,
  maxAuthorNameLength: 120,
  maxFieldBytes: 64 * 1024,
  maxFields: 100,
} as const;

/** Visitor site (spec 2.1, 2.5, 4, 9) beyond the values above. */
export const DEFAULT_THEME_ID = 'professional-light';
export const DEFAULT_HERO_LAYOUT = 'minimal';
export const PDF_ROTATION_STEP_DEG = 90;
/**
 * The fallback gallery's 'Load more' adds this many cards (the spec gives no number: the lightbox gallery's page).
 * @alias
 */
export const FALLBACK_GALLERY_PAGE_SIZE = LIGHTBOX_PAGE_SIZE;
/** The text viewer's full preview reads at most this much of a file (a Range request); the rest is a download. */
export const TEXT_PREVIEW_MAX_BYTES = 2 * 1024 * 1024;
