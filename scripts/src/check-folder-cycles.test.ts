import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildFolderGraph, findFolderCycles, folderOf, formatCycle, scanImports, type TImportGraph } from '../check-folder-cycles.mjs';

const graph: TImportGraph = new Map([
  ['app.ts', ['sites/sites.routes.ts', 'access/access.routes.ts']],
  ['sites/sites.routes.ts', ['sites/sites.service.ts', 'http/app-error.ts']],
  ['sites/sites.service.ts', ['access/cookies.ts', '../shared/index.ts']],
  ['access/access.routes.ts', ['access/cookies.ts', 'http/app-error.ts']],
  ['access/access.routes.test.ts', ['sites/sites.service.ts', 'test-support/test-app.ts']],
  ['access/cookies.ts', []],
  ['http/app-error.ts', []],
  ['test-support/test-app.ts', ['../app.ts', 'access/cookies.ts']],
  // A longer loop is not a pair: upload-sessions → uploads → storage → upload-sessions.
  ['upload-sessions/assemble.ts', ['uploads/streaming.ts']],
  ['uploads/streaming.ts', ['storage/storage.ts']],
  ['storage/storage.ts', ['upload-sessions/assemble.ts']],
]);

describe('folder cycles', () => {
  it('puts files in their first folder, and the root files and the test harness in none', () => {
    expect(folderOf('sites/sites.routes.ts')).toBe('sites');
    expect(folderOf('db/migrations/2026_01_01_0000_init.ts')).toBe('db');
    expect(folderOf('app.ts')).toBeUndefined();
    expect(folderOf('../shared/index.ts')).toBeUndefined();
    expect(folderOf('test-support/test-app.ts')).toBeUndefined();
    expect(folderOf('test-support/test-app.ts', [])).toBe('test-support');
  });

  it('builds the folder graph from the imports between folders only', () => {
    const folders = buildFolderGraph(graph);
    expect([...folders.keys()].sort()).toEqual(['access', 'http', 'sites', 'storage', 'upload-sessions', 'uploads']);
    expect([...(folders.get('sites')?.keys() ?? [])].sort()).toEqual(['access', 'http']);
    expect(folders.get('access')?.get('sites')).toEqual([{ file: 'access/access.routes.test.ts', imported: 'sites/sites.service.ts' }]);
    expect(folders.get('http')?.size).toBe(0);
  });

  it('finds each pair of folders that import each other once, with the imports both ways (a test file counts)', () => {
    const cycles = findFolderCycles(graph);
    expect(cycles).toEqual([
      {
        a: 'access',
        b: 'sites',
        aImportsB: [{ file: 'access/access.routes.test.ts', imported: 'sites/sites.service.ts' }],
        bImportsA: [{ file: 'sites/sites.service.ts', imported: 'access/cookies.ts' }],
      },
    ]);
    expect(formatCycle(cycles[0]!)).toBe(
      [
        'access ⇄ sites',
        '  access → sites:',
        '    access/access.routes.test.ts imports sites/sites.service.ts',
        '  sites → access:',
        '    sites/sites.service.ts imports access/cookies.ts',
      ].join('\n'),
    );
  });

  it('counts the test harness as an area when told to', () => {
    expect(findFolderCycles(graph, []).map(({ a, b }) => `${a} ${b}`)).toEqual(['access sites', 'access test-support']);
  });

  it('finds nothing when the folders depend one way only', () => {
    expect(
      findFolderCycles(
        new Map([
          ['a/x.ts', ['b/y.ts']],
          ['b/y.ts', ['c/z.ts']],
          ['c/z.ts', []],
        ]),
      ),
    ).toEqual([]);
  });
});

describe('import scan', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('resolves static, type, re-export and dynamic imports with or without an ending, and leaves packages and outside files out', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'folder-cycles-'));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir as string, file)), { recursive: true });
      writeFileSync(path.join(dir as string, file), text);
    };
    write('outside.ts', 'export const outside = 1;\n');
    write('src/app.ts', "import { a } from './a/a.ts';\nimport express from 'express';\nexport { a };\n");
    write('src/a/a.ts', "import type { TB } from '../b/b.js';\nexport * from '../b';\nexport const a = async () => import('../c/c');\n");
    write('src/b/index.ts', "import '../../outside.ts';\nexport type TB = string;\n");
    write('src/b/b.ts', 'export type TB = number;\n');
    write('src/c/c.tsx', "// import '../a/a.ts' in a comment is no import\nexport const c = <div />;\n");
    write('src/c/types.d.ts', "import '../a/a.ts';\n");
    const scanned = scanImports(path.join(dir, 'src'));
    expect(Object.fromEntries([...scanned].map(([file, imports]) => [file, [...imports].sort()]))).toEqual({
      'app.ts': ['a/a.ts'],
      'a/a.ts': ['b/b.ts', 'b/index.ts', 'c/c.tsx'],
      'b/index.ts': [],
      'b/b.ts': [],
      'c/c.tsx': [],
    });
  });

  it('reads the imports of Astro components, in their frontmatter and their scripts', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'folder-cycles-'));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir as string, file)), { recursive: true });
      writeFileSync(path.join(dir as string, file), text);
    };
    write('src/layouts/Page.astro', "---\nimport Hero from '../components/Hero.astro';\nimport { themeOf } from '../lib/look.ts';\n---\n<Hero />\n");
    write('src/components/Hero.astro', "---\nimport '../styles/hero.css';\n---\n<script>\n  import { mount } from '../lib/look.ts';\n  mount();\n</script>\n");
    write('src/lib/look.ts', 'export const themeOf = () => 1;\nexport const mount = () => 2;\n');
    write('src/styles/hero.css', '.hero {}\n');
    const scanned = scanImports(path.join(dir, 'src'));
    expect(Object.fromEntries([...scanned].map(([file, imports]) => [file, [...imports].sort()]))).toEqual({
      'layouts/Page.astro': ['components/Hero.astro', 'lib/look.ts'],
      'components/Hero.astro': ['lib/look.ts', 'styles/hero.css'],
      'lib/look.ts': [],
    });
  });
});
