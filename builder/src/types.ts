/** The builder's contract with whoever runs it (the control-api in-process, or a builder process). */
import type { Readable } from 'node:stream';
import type { TColorMode, TContactInfo, TDerivedMetadata, TSiteSettings, TTemplateId } from '@dropsite/shared';

/** The part of the storage interface the builder uses; the control-api's Storage satisfies it. */
export interface BuilderStorage {
  put(
    key: string,
    body: Readable | Uint8Array | string,
    options?: { contentType?: string; cacheControl?: string; etag?: string; metadata?: Readonly<Record<string, string>> },
  ): Promise<unknown>;
  get(key: string, range?: { start: number; end: number }): Promise<{ body: Readable; size: number; contentType: string | undefined }>;
  head(key: string): Promise<{ size: number; etag?: string | undefined; metadata?: Record<string, string> | undefined } | null>;
}

export interface TBuildSite {
  id: string;
  slug: string;
  title: string;
  description: string;
  subLine: string;
  tagLine: string;
  authorName: string;
  template: TTemplateId;
  /** `{style}-{light|dark}` (site-look.ts). */
  theme: string;
  /** 'auto' follows each visitor's light/dark preference; absent: pinned as `theme` says. */
  colorMode?: TColorMode;
  /** Whether visitors get a light/dark toggle; absent: no. */
  visitorModeToggle?: boolean;
  /** The owner's hero layout (one of HERO_LAYOUTS), or null for the template's default. */
  heroLayout?: string | null;
  settings: TSiteSettings;
  contactInfo: TContactInfo;
  createdAt: number;
  /** When the site's link stops working (epoch ms), when the owner set an expiry. */
  expiresAt?: number | null;
  version: number;
}

export interface TBuildFile {
  id: string;
  name: string;
  type: string;
  size: number;
  storageKey: string;
  sha256: string;
  kind: string;
  /** What an earlier build derived, when it did. */
  metadata: TDerivedMetadata | null;
  /** Bumped when the owner replaced the file's bytes (absent: the first version). */
  version?: number;
  /** The folder the creator dropped the file in (its last folder name), when there was one. */
  group?: string | null;
  createdAt: number;
}

export interface TBuildInput {
  site: TBuildSite;
  files: TBuildFile[];
}

export interface TBuildReport {
  progress: number;
  stage: string;
}

export interface TBuildResult {
  /** Storage key of the site's HTML. */
  htmlKey: string;
  htmlBytes: number;
  /** Derived metadata per file id, to be saved on the file rows. */
  derived: Record<string, TDerivedMetadata>;
  /** How many files were derived in this build (cache misses); the other files' derived data was found cached. */
  derivedCount: number;
  /** Time spent per stage, in ms: deriving files, rendering the page (and its link picture), storing it. */
  timings: { deriveMs: number; renderMs: number; storeMs: number };
  /** The page as stored: its inline scripts' hashes, and its bytes and strong tag in each coding (for a public copy). */
  page: TBuiltPage;
}

export interface TBuiltPage {
  scriptHashes: string[];
  representations: Record<'identity' | 'br' | 'gzip', { bytes: Uint8Array; etag: string }>;
}

/** The builder as whoever runs it sees it (createSiteBuilder makes one); the API's build processor takes this type. */
export interface SiteBuilder {
  buildSite(input: TBuildInput, report: (r: TBuildReport) => Promise<void>): Promise<TBuildResult>;
  /** Uploads the template's island bundles once per template version (buildSite also makes sure of it). */
  publishAssets(): Promise<void>;
  /** Waits for running builds; later calls to buildSite fail. */
  close(): Promise<void>;
}

export interface TBuilderLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
