/**
 * Presentations and office documents: converted to PDF with LibreOffice headless when `soffice`
 * is installed, stored at derived/{sha}/document.pdf, then given pages and a first-page
 * thumbnail like any PDF. Each conversion runs in its own scratch folder with its own
 * LibreOffice profile (two conversions sharing a profile lock each other out), under a time
 * limit that kills the whole process group, and the folder is removed afterwards. The profile
 * sends every network fetch a document asks for to a dead proxy and turns macros and link updates
 * off; soffice gets a minimal environment. LibreOffice itself runs in a bubblewrap sandbox (see
 * officeSandboxArgs): a document that links a local file (file:///proc/<pid>/environ, a config
 * file with the database password) finds nothing to read, and without bwrap nothing is converted.
 */
import { createWriteStream, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { chown, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { derivedPdfKey, fileTypeOf, getExtension, type TDerivedMetadata, type TFileKind } from '@dropsite/shared';
import { PreviewUnavailableError } from './derive-cache.ts';
import { IMMUTABLE_CACHE_CONTROL } from './derive-image.ts';
import { renderPdfPreview, type TDerivePdfOptions } from './derive-pdf.ts';
import { runProcess, type TRunResult, ToolMissingError, ToolTimeoutError } from './run-process.ts';
import type { BuilderStorage, TBuildFile } from './types.ts';

/** Files LibreOffice converts: the catalogue's office formats (file-types.ts) but Keynote. */
function isConvertible(name: string): boolean {
  return fileTypeOf(name)?.derivation === 'office' && getExtension(name) !== 'key';
}

export const NO_LIBREOFFICE = 'Preview not available: LibreOffice is not installed on this server.';
export const NO_OFFICE_SANDBOX = 'Preview not available: the document converter cannot run in its sandbox on this server.';

/** Who LibreOffice runs as when the builder runs as root (nobody). */
export const OFFICE_SANDBOX_UID = 65534;
/** Where the conversion's scratch folder appears inside the sandbox. */
const SANDBOX_DIR = '/convert';

export interface TDeriveOfficeOptions extends TDerivePdfOptions {
  /** The LibreOffice binary. Default `soffice` from PATH. */
  sofficePath?: string;
  /** The bubblewrap binary LibreOffice runs under. Default `bwrap` from PATH; without it nothing is converted. */
  bwrapPath?: string;
  /** Time limit of one conversion. Default 120 s. */
  convertTimeoutMs?: number;
  /** Originals above this size are not converted. Default 100 MiB. */
  maxOfficeInputBytes?: number;
  /** Where scratch folders go. Default the OS temp folder. */
  scratchDir?: string;
  /** Serialises conversions: LibreOffice is memory-hungry, one at a time per process is plenty. */
  gate?: <T>(work: () => Promise<T>) => Promise<T>;
}

const OFFICE_DEFAULTS = { sofficePath: 'soffice', bwrapPath: 'bwrap', convertTimeoutMs: 120_000, maxOfficeInputBytes: 100 * 1024 * 1024 } as const;

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
function conversionEnv(): NodeJS.ProcessEnv {
  const proxy = `http://${DEAD_PROXY.host}:${DEAD_PROXY.port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: SANDBOX_DIR, // LibreOffice writes caches under HOME
    TMPDIR: SANDBOX_DIR,
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

/** Files under /etc LibreOffice needs (fonts, the dynamic linker's cache, its own settings); the rest of /etc stays out. */
const SANDBOX_ETC = [
  '/etc/fonts',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/libreoffice',
  '/etc/alternatives',
  '/etc/localtime',
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
] as const;

/**
 * The bubblewrap command line that runs `command args` with nothing of the host but the system's
 * programs and libraries (read-only) and `scratch` (read-write, seen as /convert, also HOME):
 * no network (its own empty network namespace), its own /proc and process tree (no other
 * process's environment to read), a fresh /tmp and /dev, a new session (no terminal to inject
 * into), killed when the builder goes. A builder running as root hands the sandbox to nobody
 * (uid/gid 65534, no capabilities) with setpriv, so files the sandbox can still reach are read as
 * an unprivileged user; any other user runs it under its own uid in a user namespace.
 */
export function officeSandboxArgs(
  scratch: string,
  command: string,
  args: readonly string[],
  options: { bwrapPath?: string; readOnly?: readonly string[] } = {},
): { command: string; args: string[] } {
  const asRoot = process.getuid?.() === 0;
  const out: string[] = [
    // As root no user namespace: bwrap then drops to a real unprivileged uid (below) instead of a uid mapped back to root.
    ...(asRoot ? ['--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try'] : ['--unshare-all']),
    '--die-with-parent',
    '--new-session',
    '--ro-bind',
    '/usr',
    '/usr',
  ];
  // Merged /usr (Debian 12) has /bin, /lib... as symlinks into /usr; older layouts have real folders.
  for (const top of ['/bin', '/sbin', '/lib', '/lib32', '/lib64']) {
    const info = lstatSync(top, { throwIfNoEntry: false });
    if (info?.isSymbolicLink()) out.push('--symlink', readlinkSync(top), top);
    else if (info?.isDirectory()) out.push('--ro-bind', top, top);
  }
  // bwrap makes missing parents 0700 (root only): /etc must be readable by the sandbox's user.
  out.push('--perms', '0755', '--dir', '/etc');
  for (const file of SANDBOX_ETC) out.push('--ro-bind-try', file, file);
  // The font cache (else each conversion rescans every font) and Debian's bundled extensions. A LibreOffice
  // outside /usr (The Document Foundation's packages use /opt/libreofficeX.Y) brings its folder: readOnly.
  for (const dir of ['/var/cache/fontconfig', '/var/lib/libreoffice']) out.push('--ro-bind-try', dir, dir);
  out.push(
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    // World-writable like a real /tmp: LibreOffice puts its instance pipe there.
    '--perms',
    '1777',
    '--tmpfs',
    '/tmp',
  );
  // After /tmp, which would hide a folder under it.
  for (const dir of options.readOnly ?? []) out.push('--ro-bind', dir, dir);
  out.push('--bind', scratch, SANDBOX_DIR, '--chdir', SANDBOX_DIR, '--setenv', 'HOME', SANDBOX_DIR, '--setenv', 'TMPDIR', SANDBOX_DIR);
  if (asRoot) {
    const id = String(OFFICE_SANDBOX_UID);
    out.push('--', '/usr/bin/setpriv', `--reuid=${id}`, `--regid=${id}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--', command, ...args);
  } else {
    out.push('--', command, ...args);
  }
  return { command: options.bwrapPath ?? OFFICE_DEFAULTS.bwrapPath, args: out };
}

/** The soffice binary as an absolute path (looked up in PATH like a shell would), or null when not installed. */
function resolveTool(name: string): string | null {
  const candidates = name.includes('/')
    ? [path.resolve(name)]
    : (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, name));
  for (const candidate of candidates) {
    const info = statSync(candidate, { throwIfNoEntry: false });
    if (info?.isFile() && (info.mode & 0o111) !== 0) return candidate;
  }
  return null;
}

/**
 * Folders the sandbox must add so `binary` (and what it links to) can run: none under the system's own
 * /usr; for a LibreOffice installation elsewhere (…/program/soffice) the whole installation.
 */
function foldersFor(binary: string): string[] {
  const dirs = new Set<string>();
  for (const file of [binary, realpathSync(binary)]) {
    const dir = path.dirname(file);
    if (/^\/(usr|bin|sbin|lib|lib32|lib64)(\/|$)/.test(dir)) continue;
    dirs.add(path.basename(dir) === 'program' ? path.dirname(dir) : dir);
  }
  return [...dirs];
}

/** Hands the scratch folder to the sandbox's user, so LibreOffice can write its profile and the PDF. */
async function giveTo(dir: string, uid: number): Promise<void> {
  await chown(dir, uid, uid);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) await giveTo(child, uid);
    else await chown(child, uid, uid);
  }
}

export async function deriveOffice(
  storage: BuilderStorage,
  file: Pick<TBuildFile, 'storageKey' | 'sha256' | 'size' | 'name'>,
  kind: TFileKind,
  options: TDeriveOfficeOptions,
): Promise<TDerivedMetadata> {
  const ext = getExtension(file.name);
  if (!isConvertible(file.name)) {
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

async function convertToPdf(storage: BuilderStorage, file: Pick<TBuildFile, 'storageKey' | 'size'>, ext: string, options: TDeriveOfficeOptions): Promise<Buffer> {
  const scratch = await mkdtemp(path.join(options.scratchDir ?? os.tmpdir(), 'dropsite-convert-'));
  try {
    // A server-made name: the creator's file name never reaches the command line.
    const input = path.join(scratch, `document.${ext}`);
    const outDir = path.join(scratch, 'out');
    const { body } = await storage.get(file.storageKey);
    await pipeline(body, createWriteStream(input, { flags: 'wx' }));
    const profile = path.join(scratch, 'profile');
    await mkdir(path.join(profile, 'user'), { recursive: true });
    await mkdir(outDir);
    await writeFile(path.join(profile, 'user', 'registrymodifications.xcu'), PROFILE_SETTINGS);
    const soffice = resolveTool(options.sofficePath ?? OFFICE_DEFAULTS.sofficePath);
    if (!soffice) throw new PreviewUnavailableError(NO_LIBREOFFICE, { final: false });
    if (process.getuid?.() === 0) await giveTo(scratch, OFFICE_SANDBOX_UID);
    // Paths as the sandbox sees them: the scratch folder is /convert there.
    const args = [
      `-env:UserInstallation=${pathToFileURL(`${SANDBOX_DIR}/profile`).href}`,
      '--headless',
      '--invisible',
      '--norestore',
      '--nolockcheck',
      '--nodefault',
      '--nofirststartwizard',
      '--convert-to',
      'pdf',
      '--outdir',
      `${SANDBOX_DIR}/out`,
      `${SANDBOX_DIR}/document.${ext}`,
    ];
    const sandboxed = officeSandboxArgs(scratch, soffice, args, { bwrapPath: options.bwrapPath, readOnly: foldersFor(soffice) });
    let result: TRunResult;
    try {
      result = await runProcess(sandboxed.command, sandboxed.args, {
        timeoutMs: options.convertTimeoutMs ?? OFFICE_DEFAULTS.convertTimeoutMs,
        cwd: scratch,
        env: conversionEnv(),
        killGroup: true,
        maxStdoutBytes: 1024 * 1024,
      });
    } catch (error) {
      // The only tool spawned here is bwrap: soffice's absence was found above.
      if (error instanceof ToolMissingError) throw new PreviewUnavailableError(NO_OFFICE_SANDBOX, { final: false, cause: error });
      if (error instanceof ToolTimeoutError) {
        throw new PreviewUnavailableError('Preview not available: converting this document took too long.', { final: false, cause: error });
      }
      throw error;
    }
    if (result.code !== 0 && /^bwrap: /m.test(result.stderr)) {
      // bwrap could not build the sandbox (no namespaces allowed here): never fall back to running unsandboxed.
      throw new PreviewUnavailableError(NO_OFFICE_SANDBOX, { final: false, cause: new Error(result.stderr.trim().split('\n').at(-1)) });
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
