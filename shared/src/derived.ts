/** What the builder derives from each file, cached by content hash, and what of it a site may show. */
import { z } from 'zod';
import { FILE_KINDS } from './file-types.ts';

export const ZDerivedImageSchema = z.object({
  key: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  contentType: z.string(),
});
export type TDerivedImage = z.infer<typeof ZDerivedImageSchema>;

/** One node of an archive's tree (spec 'Archive entry'). Folders have children. */
export interface TArchiveEntry {
  name: string;
  /** Full path inside the archive, '/'-separated, never absolute, never with '..'. */
  path: string;
  type: 'file' | 'folder';
  /** Uncompressed bytes (files), or the sum of the folder. */
  size: number;
  compressedSize?: number | undefined;
  fileType?: string | undefined;
  /** ISO date-time of the entry's modification, when the archive records it. */
  modified?: string | undefined;
  /**
   * False for a file the API does not extract on its own (archive-rules.ts, or encrypted):
   * the site offers it only inside the whole archive. Absent means it can be downloaded.
   */
  extractable?: boolean | undefined;
  children?: TArchiveEntry[] | undefined;
}
export const ZArchiveEntrySchema: z.ZodType<TArchiveEntry> = z.lazy(() =>
  z.object({
    name: z.string(),
    path: z.string(),
    type: z.enum(['file', 'folder']),
    size: z.number().nonnegative(),
    compressedSize: z.number().nonnegative().optional(),
    fileType: z.string().optional(),
    modified: z.string().optional(),
    extractable: z.boolean().optional(),
    children: z.array(ZArchiveEntrySchema).optional(),
  }),
);

export const ZArchiveSummarySchema = z.object({
  format: z.string(),
  totalFiles: z.number().int().nonnegative(),
  totalFolders: z.number().int().nonnegative(),
  /** Uncompressed bytes of all entries. */
  size: z.number().nonnegative(),
  compressedSize: z.number().nonnegative(),
  /** compressed / uncompressed, 0-1. */
  ratio: z.number().nonnegative(),
  entries: z.array(ZArchiveEntrySchema),
  /** True when the tree was cut at the entry limit. */
  truncated: z.boolean().default(false),
  /**
   * Entries left out of the tree: unsafe ones (absolute or `..` paths, backslashes, symbolic
   * links) and repeated paths. Absent when none were.
   */
  skippedEntries: z.number().int().nonnegative().optional(),
  /** Uncompressed bytes one entry download may extract, a selection together (the site's tree only). */
  entryMaxBytes: z.number().int().positive().optional(),
});
export type TArchiveSummary = z.infer<typeof ZArchiveSummarySchema>;

export const ZMediaSummarySchema = z.object({
  durationSeconds: z.number().nonnegative().optional(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  /** Bits per second. */
  bitrate: z.number().nonnegative().optional(),
  container: z.string().optional(),
  videoCodec: z.string().optional(),
  audioCodec: z.string().optional(),
});
export type TMediaSummary = z.infer<typeof ZMediaSummarySchema>;

export const ZTextSummarySchema = z.object({
  encoding: z.string(),
  /** The first lines as they are (the card cuts to 12 lines of 50 characters itself). */
  firstLines: z.array(z.string()),
  totalLines: z.number().int().nonnegative().optional(),
});
export type TTextSummary = z.infer<typeof ZTextSummarySchema>;

/** What the builder derived from one file; kept on the file row and in the derivation cache. */
export const ZDerivedMetadataSchema = z.object({
  sha256: z.string(),
  kind: z.enum(FILE_KINDS),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  format: z.string().optional(),
  /** 300 px image: an image's thumbnail, a PDF's first page, a video's poster. */
  thumbnail: ZDerivedImageSchema.optional(),
  /** About 1600 px: an image's display copy, a video's full-size poster; a PDF's (or converted document's) whole first page, 1200 px wide. */
  display: ZDerivedImageSchema.optional(),
  /** PDFs and presentations: page count. */
  pages: z.number().int().nonnegative().optional(),
  /** Presentations and office documents converted to PDF: where that PDF is stored. */
  pdf: z.object({ key: z.string(), size: z.number().int().nonnegative() }).optional(),
  media: ZMediaSummarySchema.optional(),
  archive: ZArchiveSummarySchema.optional(),
  text: ZTextSummarySchema.optional(),
  /** Why a preview could not be made (the site then offers a download card). */
  error: z.string().optional(),
});
export type TDerivedMetadata = z.infer<typeof ZDerivedMetadataSchema>;

/** The part of the derived metadata a published site shows. No storage keys. */
export const ZPublicFileDetailsSchema = z.object({
  pages: z.number().int().nonnegative().optional(),
  /** A PDF rendering exists (PDFs, converted presentations): load it from `pdfUrl`. */
  pdfUrl: z.string().optional(),
  posterUrl: z.string().optional(),
  /**
   * With `pdfUrl`: the first page drawn at build time (its pixel size), which the viewer shows until
   * the visitor turns to the document and PDF.js loads.
   */
  firstPage: z.strictObject({ url: z.string(), width: z.number().int().positive(), height: z.number().int().positive() }).optional(),
  media: ZMediaSummarySchema.optional(),
  archive: ZArchiveSummarySchema.optional(),
  text: ZTextSummarySchema.optional(),
  /** Set when no preview could be made: the viewer shows a download card with this reason. */
  previewUnavailable: z.string().optional(),
});
export type TPublicFileDetails = z.infer<typeof ZPublicFileDetailsSchema>;
