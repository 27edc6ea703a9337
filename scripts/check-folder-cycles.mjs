// @ts-check
/**
 * node scripts/check-folder-cycles.mjs [folder…]   (default: control-api/src; part of `npm run lint`, which checks
 * control-api/src, dashboard/src and site-template/src)
 * Plain JavaScript (typed with JSDoc, checked by tsc) like bootstrap.mjs, so the lint runs on any Node.
 * Each area of the control API is one folder, and two areas may depend on each other one way
 * only: two folders that import each other can be neither read, tested nor moved apart. This scans
 * every TypeScript file under the folder (tests included), turns its relative imports into a
 * graph of the top-level folders, prints each pair that imports both ways with the imports that
 * do it, and exits 1 when there is one. Files directly in the folder (app.ts, runtime.ts, deps.ts…)
 * and the test harness are the composition root that wires every area together: they belong to no area.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** @typedef {ReadonlyMap<string, readonly string[]>} TImportGraph Each file (relative to the scanned folder, with `/`) and the files it imports. */
/** @typedef {{ file: string; imported: string }} TFolderImport One import that makes a folder depend on another: `file` imports `imported`. */
/** @typedef {{ a: string; b: string; aImportsB: TFolderImport[]; bImportsA: TFolderImport[] }} TFolderCycle Two folders that import each other, with the imports each way (`a` sorts before `b`). */

/** Astro components count too: their frontmatter and scripts import like any module. */
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.astro'];

/**
 * Folders that belong to the composition root: the test harness builds a whole app from every area
 * and every area's tests use it, the way app.ts and runtime.ts wire every area for production.
 */
const ROOT_FOLDERS = ['test-support'];

/**
 * The area a file belongs to: its first folder; none for the composition root's files and files outside.
 * @param {string} file
 * @param {readonly string[]} [rootFolders]
 * @returns {string | undefined}
 */
export function folderOf(file, rootFolders = ROOT_FOLDERS) {
  const slash = file.indexOf('/');
  const folder = slash === -1 ? undefined : file.slice(0, slash);
  return folder === undefined || folder === '..' || rootFolders.includes(folder) ? undefined : folder;
}

/**
 * Folder → folder it imports → the imports that make it so. Imports within one folder and the root's files are left out.
 * @param {TImportGraph} graph
 * @param {readonly string[]} [rootFolders]
 * @returns {Map<string, Map<string, TFolderImport[]>>}
 */
export function buildFolderGraph(graph, rootFolders = ROOT_FOLDERS) {
  /** @type {Map<string, Map<string, TFolderImport[]>>} */
  const folders = new Map();
  for (const [file, imports] of graph) {
    const from = folderOf(file, rootFolders);
    if (from === undefined) continue;
    const targets = folders.get(from) ?? new Map();
    folders.set(from, targets);
    for (const imported of imports) {
      const to = folderOf(imported, rootFolders);
      if (to === undefined || to === from) continue;
      const list = targets.get(to) ?? [];
      list.push({ file, imported });
      targets.set(to, list);
    }
  }
  return folders;
}

/**
 * Every pair of folders that import each other, in name order. A longer loop (a → b → c → a) is not
 * reported: the rule is that no two areas lean on each other, and a test of one area may read
 * another's repository without tying the areas' code together.
 * @param {TImportGraph} graph
 * @param {readonly string[]} [rootFolders]
 * @returns {TFolderCycle[]}
 */
export function findFolderCycles(graph, rootFolders = ROOT_FOLDERS) {
  const folderGraph = buildFolderGraph(graph, rootFolders);
  /** @type {TFolderCycle[]} */
  const cycles = [];
  for (const a of [...folderGraph.keys()].sort()) {
    for (const [b, aImportsB] of [...(folderGraph.get(a) ?? [])].sort(([x], [y]) => x.localeCompare(y))) {
      const bImportsA = folderGraph.get(b)?.get(a);
      if (a < b && bImportsA) cycles.push({ a, b, aImportsB, bImportsA });
    }
  }
  return cycles;
}

/**
 * A pair as the lines the check prints: the two folders, then the imports each way.
 * @param {TFolderCycle} cycle
 * @returns {string}
 */
export function formatCycle({ a, b, aImportsB, bImportsA }) {
  const lines = [`${a} ⇄ ${b}`];
  /** @type {Array<[string, string, TFolderImport[]]>} */
  const directions = [
    [a, b, aImportsB],
    [b, a, bImportsA],
  ];
  for (const [from, to, imports] of directions) {
    lines.push(`  ${from} → ${to}:`);
    for (const { file, imported } of imports) lines.push(`    ${file} imports ${imported}`);
  }
  return lines.join('\n');
}

/**
 * Where a relative import lands, trying the endings TypeScript would; undefined for a package or a missing file.
 * @param {string} fromFile
 * @param {string} specifier
 * @returns {string | undefined}
 */
function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const base = path.resolve(path.dirname(fromFile), specifier);
  const stripped = base.replace(/\.(m?js|jsx)$/, '');
  const candidates = [base, ...SOURCE_EXTENSIONS.map((ext) => stripped + ext), ...SOURCE_EXTENSIONS.map((ext) => path.join(base, `index${ext}`))];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/**
 * The import graph of every TypeScript file under `root`: static imports, re-exports, `import()` and type imports alike.
 * @param {string} root
 * @returns {TImportGraph}
 */
export function scanImports(root) {
  /** @type {Map<string, string[]>} */
  const graph = new Map();
  /** @param {string} dir */
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (SOURCE_EXTENSIONS.some((ext) => entry.name.endsWith(ext)) && !entry.name.endsWith('.d.ts')) {
        const { importedFiles } = ts.preProcessFile(readFileSync(full, 'utf8'), true, true);
        const imports = importedFiles
          .map(({ fileName }) => resolveImport(full, fileName))
          .filter(/** @returns {target is string} */ (target) => target !== undefined && !path.relative(root, target).startsWith('..'))
          .map((target) => path.relative(root, target).split(path.sep).join('/'));
        graph.set(path.relative(root, full).split(path.sep).join('/'), [...new Set(imports)]);
      }
    }
  };
  visit(root);
  return graph;
}

// Run as a command (import.meta.main is Node 24's; the lint may run on an older Node).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folders = process.argv.length > 2 ? process.argv.slice(2) : ['control-api/src'];
  for (const folder of folders) {
    const root = path.resolve(folder);
    const graph = scanImports(root);
    const cycles = findFolderCycles(graph);
    if (cycles.length === 0) {
      process.stdout.write(`No folder cycles in ${path.relative(process.cwd(), root) || '.'} (${graph.size} files).\n`);
    } else {
      process.stderr.write(`${cycles.length} pair(s) of folders import each other in ${path.relative(process.cwd(), root) || '.'}:\n\n${cycles.map(formatCycle).join('\n\n')}\n`);
      process.exitCode = 1;
    }
  }
}
