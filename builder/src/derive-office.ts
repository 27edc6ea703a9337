/**
 * Presentations and office documents: converted to PDF with LibreOffice headless when `soffice`
 * is installed, stored at derived/{sha}/document.pdf, then given pages and a first-page
 * thumbnail like any PDF. Each conversion runs in its own scratch folder with its own
 * LibreOffice profile (two conversions sharing a profile lock each other out), under a time
 * limit that kills the whole process group, and the folder is removed afterwards. The profile
 * sends every network fetch a document asks for to a dead proxy and turns macros off; soffice
 * gets a minimal environment. (Links to local files are not blocked by LibreOffice settings:
 * production builders belong in a sandbox without secrets on disk.)
 */
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { getExtension, type TDerivedMetadata, type TFileKind } from '@dropsite/shared';
import { derivedPdfKey, PreviewUnavailableError } from './derive-cache.ts';
import { IMMUTABLE_CACHE_CONTROL } from './derive-image.ts';
import { renderPdfPreview, type TDerivePdfOptions } from './derive-pdf.ts';
import { runProcess, ToolMissingError, ToolTimeoutError } from './run-process.ts';
import type { BuilderStorage, TBuildFile } from './types.ts';

/** Extensions LibreOffice converts. Keynote is not among them. */
export const OFFICE_EXTENSIONS = new Set(['ppt', 'pptx', 'pps', 'ppsx', 'odp', 'doc', 'docx', 'odt', 'rtf', 'xls', 'xlsx', 'ods']);

export const NO_LIBREOFFICE = 'Preview not available: LibreOffice is not installed on this server.';

export interface TDeriveOfficeOptions extends TDerivePdfOptions {
  /** The LibreOffice binary. Default `soffice` from PATH. */
  sofficePath?: string;
  /** Time limit of one conversion. Default 120 s. */
  convertTimeoutMs?: number;
  /** Originals above this size are not converted. Default 100 MiB. */
  maxOfficeInputBytes?: number;
  /** Where scratch folders go. Default the OS temp folder. */
  scratchDir?: string;
  /** Serialises conversions: LibreOffice is memory-hungry, one at a time per process is plenty. */
  gate?: <T>(work: () => Promise<T>) => Promise<T>;
}

const OFFICE_DEFAULTS = { sofficePath: 'soffice', convertTimeoutMs: 120_000, maxOfficeInputBytes: 100 * 1024 * 1024 } as const;

/**
 * A closed port on loopback. Documents can link images and data by URL, and LibreOffice fetches
 * them while converting (server-side request forgery): every fetch is sent to this dead proxy.
 */
const DEAD_PROXY = { host: '127.0.0.1', port: 9 } as const;

/** The profile's settings: no network (dead proxy), no macros, no link updates. */
const PROFILE_SETTINGS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
${[
  ['/org.openoffice.Inet/Settings', 'ooInetProxyType', '1'],
  ['/org.openoffice.Inet/Settings', 'ooInetHTTPProxyName', DEAD_PROXY.host],
  ['/org.openoffice.Inet/Settings', 'ooInetHTTPProxyPort', String(DEAD_PROXY.port)],
  ['/org.openoffice.Inet/Settings', 'ooInetHTTPSProxyName', DEAD_PROXY.host],
  ['/org.openoffice.Inet/Settings', 'ooInetHTTPSProxyPort', String(DEAD_PROXY.port)],
  ['/org.openoffice.Inet/Settings', 'ooInetFTPProxyName', DEAD_PROXY.host],
  ['/org.openoffice.Inet/Settings', 'ooInetFTPProxyPort', String(DEAD_PROXY.port)],
  ['/org.openoffice.Inet/Settings', 'ooInetNoProxy', ''],
  ['/org.openoffice.Office.Common/Security/Scripting', 'MacroSecurityLevel', '3'],
  ['/org.openoffice.Office.Common/Security/Scripting', 'DisableMacrosExecution', 'true'],
  ['/org.openoffice.Office.Common/Security/Scripting', 'BlockUntrustedRefererLinks', 'true'],
  ['/org.openoffice.Office.Writer/Content/Update', 'Link', '2'],
  ['/org.openoffice.Office.Calc/Content/Update', 'Link', '2'],
]
  .map(([item, name, value]) => `<item oor:path="${item}"><prop oor:name="${name}" oor:op="fuse"><value>${value}</value></prop></item>`)
  .join('\n')}
</oor:items>
`;

/** What soffice may see of our environment: never the server's secrets (database, storage, payment keys). */
function conversionEnv(scratch: string): NodeJS.ProcessEnv {
  const proxy = `http://${DEAD_PROXY.host}:${DEAD_PROXY.port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: scratch, // LibreOffice writes caches under HOME
    TMPDIR: scratch,
    LANG: process.env.LANG ?? 'C.UTF-8',
    http_proxy: proxy,
    https_proxy: proxy,
    ftp_proxy: proxy,
    all_proxy: proxy,
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    no_proxy: '',
  };
  for (const [name, value] of Object.entries(process.env)) if (name.startsWith('LC_')) env[name] = value;
  return env;
}

export async function deriveOffice(
  storage: BuilderStorage,
  file: Pick<TBuildFile, 'storageKey' | 'sha256' | 'size' | 'name'>,
  kind: TFileKind,
  options: TDeriveOfficeOptions,
): Promise<TDerivedMetadata> {
  const ext = getExtension(file.name);
  if (!OFFICE_EXTENSIONS.has(ext)) {
    const what = ext === 'key' ? 'Keynote presentations' : ext ? `.${ext} files` : 'this file';
    throw new PreviewUnavailableError(`Preview not available: ${what} cannot be converted on this server.`, { final: true });
  }
  const maxInput = options.maxOfficeInputBytes ?? OFFICE_DEFAULTS.maxOfficeInputBytes;
  if (file.size > maxInput) throw new PreviewUnavailableError('Preview not available: this document is larger than the preview limit.', { final: true });

  const convert = () => convertToPdf(storage, file, ext, options);
  const pdf = await (options.gate ? options.gate(convert) : convert());
  const pdfKey = derivedPdfKey(file.sha256);
  await storage.put(pdfKey, pdf, { contentType: 'application/pdf', cacheControl: IMMUTABLE_CACHE_CONTROL });
  const preview = await renderPdfPreview(storage, file.sha256, pdf, options);
  return { sha256: file.sha256, kind, format: ext, pdf: { key: pdfKey, size: pdf.length }, ...preview };
}

async function convertToPdf(
  storage: BuilderStorage,
  file: Pick<TBuildFile, 'storageKey' | 'size'>,
  ext: string,
  options: TDeriveOfficeOptions,
): Promise<Buffer> {
  const scratch = await mkdtemp(path.join(options.scratchDir ?? os.tmpdir(), 'dropsite-convert-'));
  try {
    // A server-made name: the creator's file name never reaches the command line.
    const input = path.join(scratch, `document.${ext}`);
    const outDir = path.join(scratch, 'out');
    const { body } = await storage.get(file.storageKey);
    await pipeline(body, createWriteStream(input, { flags: 'wx' }));
    const profile = path.join(scratch, 'profile');
    await mkdir(path.join(profile, 'user'), { recursive: true });
    await writeFile(path.join(profile, 'user', 'registrymodifications.xcu'), PROFILE_SETTINGS);
    const args = [
      `-env:UserInstallation=${pathToFileURL(profile).href}`,
      '--headless',
      '--invisible',
      '--norestore',
      '--nolockcheck',
      '--nodefault',
      '--nofirststartwizard',
      '--convert-to',
      'pdf',
      '--outdir',
      outDir,
      input,
    ];
    let result;
    try {
      result = await runProcess(options.sofficePath ?? OFFICE_DEFAULTS.sofficePath, args, {
        timeoutMs: options.convertTimeoutMs ?? OFFICE_DEFAULTS.convertTimeoutMs,
        cwd: scratch,
        env: conversionEnv(scratch),
        killGroup: true,
        maxStdoutBytes: 1024 * 1024,
      });
    } catch (error) {
      if (error instanceof ToolMissingError) throw new PreviewUnavailableError(NO_LIBREOFFICE, { final: false, cause: error });
      if (error instanceof ToolTimeoutError) {
        throw new PreviewUnavailableError('Preview not available: converting this document took too long.', { final: false, cause: error });
      }
      throw error;
    }
    const output = path.join(outDir, 'document.pdf');
    const made = await stat(output).catch(() => null);
    if (!made || made.size === 0) {
      // soffice exits 0 even when it could not load the file (a damaged file, or a component
      // such as Writer or Calc that is not installed): not final, an install may fix it.
      const detail = `${result.stderr}\n${result.stdout.toString('utf8')}`.trim().split('\n').at(-1) ?? '';
      throw new PreviewUnavailableError('Preview not available: this document could not be converted to PDF.', {
        final: false,
        cause: new Error(`soffice exited ${result.code}: ${detail}`),
      });
    }
    return await readFile(output);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
