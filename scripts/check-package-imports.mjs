// @ts-check
/**
 * node scripts/check-package-imports.mjs   (part of `npm run lint`)
 * Plain JavaScript (typed with JSDoc, checked by tsc) like check-folder-cycles.mjs, so the lint runs on any Node.
 * A package is used through its entry points (`@dropsite/control-api`, `@dropsite/testkit/control-api/test-app`…),
 * never by a relative path into its folder: a path like `../control-api/src/db/ids.ts` skips what the
 * package chose to expose and breaks when the package moves a file. This reads every file git knows
 * of (tracked, or new and not ignored: built output never counts), finds its relative imports
 * (static, dynamic, `export … from`, `require`, CSS `@import`), and prints each one whose target lies
 * in another workspace than the file (the repository's root is a package of its own). Exits 1 when
 * there is one.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * One relative import whose target is in another package: `from` is the package folder of the
 * importing file ('.' for the repository's root), `to` the package folder the import reaches into.
 * @typedef {{ file: string; line: number; specifier: string; from: string; to: string }} TCrossPackageImport
 */

const SCRIPT_FILE = /\.(?:[cm]?[jt]sx?|astro)$/;
const CSS_FILE = /\.css$/;
const CSS_IMPORT = /@import\s+(?:url\(\s*)?(['"])([^'"]+)\1/g;

/**
 * The package folder a file belongs to: the deepest workspace folder holding it, or '.' for the root package.
 * @param {string} file
 * @param {readonly string[]} workspaces
 * @returns {string}
 */
export function packageOf(file, workspaces) {
  let owner = '.';
  for (const workspace of workspaces) {
    if ((file === workspace || file.startsWith(`${workspace}/`)) && workspace.length > owner.length) owner = workspace;
  }
  return owner;
}

/**
 * The module specifiers a file imports, with their lines (1-based).
 * @param {string} file
 * @param {string} text
 * @returns {{ specifier: string; line: number }[]}
 */
export function importsOf(file, text) {
  if (CSS_FILE.test(file)) {
    return [...text.matchAll(CSS_IMPORT)].map((match) => ({ specifier: /** @type {string} */ (match[2]), line: lineAt(text, match.index) }));
  }
  if (!SCRIPT_FILE.test(file)) return [];
  // preProcessFile reads import, export-from, import() and require() without parsing the whole file;
  // comments and strings that merely look like imports are skipped by its scanner.
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles.map((imported) => ({ specifier: imported.fileName, line: lineAt(text, imported.pos) }));
}

/**
 * @param {string} text
 * @param {number} offset
 * @returns {number}
 */
function lineAt(text, offset) {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}

/**
 * The relative imports among `files` (paths from the repository's root, with `/`) that reach into another package.
 * @param {readonly { file: string; text: string }[]} files
 * @param {readonly string[]} workspaces
 * @returns {TCrossPackageImport[]}
 */
export function findCrossPackageImports(files, workspaces) {
  /** @type {TCrossPackageImport[]} */
  const found = [];
  for (const { file, text } of files) {
    const from = packageOf(file, workspaces);
    for (const { specifier, line } of importsOf(file, text)) {
      if (!specifier.startsWith('./') && !specifier.startsWith('../')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      const to = target.startsWith('../') ? '(outside the repository)' : packageOf(target, workspaces);
      if (to !== from) found.push({ file, line, specifier, from, to });
    }
  }
  return found;
}

/**
 * @param {TCrossPackageImport} found
 * @returns {string}
 */
export function formatCrossPackageImport({ file, line, specifier, to }) {
  const into = to === '.' ? 'the repository root' : to;
  return `${file}:${line} imports '${specifier}', a path into ${into}: import the package's entry point instead`;
}

/**
 * The workspace folders of the root package.json.
 * @param {string} root
 * @returns {string[]}
 */
export function readWorkspaces(root) {
  /** @type {{ workspaces?: string[] }} */
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return (manifest.workspaces ?? []).map((workspace) => path.posix.normalize(workspace).replace(/\/$/, ''));
}

/**
 * Every file git knows of under `root`: tracked, or new and not ignored.
 * @param {string} root
 * @returns {string[]}
 */
export function listSourceFiles(root) {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return [...new Set(listed.split('\0').filter((file) => SCRIPT_FILE.test(file) || CSS_FILE.test(file)))].sort();
}

/**
 * @param {string} root
 * @returns {TCrossPackageImport[]}
 */
export function checkPackageImports(root) {
  const files = listSourceFiles(root).flatMap((file) => {
    try {
      return [{ file, text: readFileSync(path.join(root, file), 'utf8') }];
    } catch {
      return []; // deleted in the work tree but not yet in the index
    }
  });
  return findCrossPackageImports(files, readWorkspaces(root));
}

// Run as a command (import.meta.main is Node 24's; the lint may run on an older Node).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const found = checkPackageImports(root);
  if (found.length > 0) {
    process.stderr.write(`${found.map(formatCrossPackageImport).join('\n')}\n\n${found.length} relative import(s) cross a package boundary.\n`);
    process.exit(1);
  }
  process.stdout.write(`No relative import crosses a package boundary (${listSourceFiles(root).length} files).\n`);
}
