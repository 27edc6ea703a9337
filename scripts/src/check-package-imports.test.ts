import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPackageImports, findCrossPackageImports, formatCrossPackageImport, importsOf, packageOf } from '../check-package-imports.mjs';

const WORKSPACES = ['shared', 'control-api', 'site-template', 'bench', 'e2e', 'tools'];

describe('relative imports across packages', () => {
  it('puts a file in the deepest workspace holding it, and the rest in the root package', () => {
    expect(packageOf('control-api/src/app.ts', WORKSPACES)).toBe('control-api');
    expect(packageOf('site-template/src/components/viewers/shared/icons.tsx', WORKSPACES)).toBe('site-template');
    expect(packageOf('vitest.config.ts', WORKSPACES)).toBe('.');
    expect(packageOf('shared-notes/x.ts', WORKSPACES)).toBe('.');
    expect(packageOf('a/b/c.ts', ['a', 'a/b'])).toBe('a/b');
  });

  it('reads static, type-only, export-from, dynamic, require and CSS imports with their lines, not comments', () => {
    const text = [
      "import { a } from '../control-api/src/a.ts';",
      "import type { B } from './b.ts';",
      "export * from '../../shared/src/constants.ts';",
      "// import { c } from '../e2e/c.ts';",
      "const d = await import('../bench/d.ts');",
      "const e = require('./e.cjs');",
      'const f = \'import { g } from "../e2e/g.ts"\';',
    ].join('\n');
    expect(importsOf('tools/src/x.ts', text)).toEqual([
      { specifier: '../control-api/src/a.ts', line: 1 },
      { specifier: './b.ts', line: 2 },
      { specifier: '../../shared/src/constants.ts', line: 3 },
      { specifier: '../bench/d.ts', line: 5 },
      { specifier: './e.cjs', line: 6 },
    ]);
    expect(importsOf('dashboard/src/app.css', '@import \'../../shared/src/browser/base.css\';\n@import url("./local.css");')).toEqual([
      { specifier: '../../shared/src/browser/base.css', line: 1 },
      { specifier: './local.css', line: 2 },
    ]);
    expect(importsOf('README.md', "import x from '../control-api/src/a.ts'")).toEqual([]);
  });

  it('finds a relative import into another package, and lets package specifiers and imports inside a package pass', () => {
    const found = findCrossPackageImports(
      [
        { file: 'bench/seed.ts', text: "import { insertFiles } from '../control-api/src/site-records/site-records.repository.ts';\nimport { x } from './lib.ts';" },
        { file: 'e2e/visitor.ts', text: "import { makePdf } from '@dropsite/testkit/builder/media-fixtures';\nimport { y } from '../bench/lib.ts';" },
        // A folder named like a package, inside another package: not a crossing.
        { file: 'site-template/src/components/viewers/pdf/PdfViewer.tsx', text: "import { Icon } from '../shared/icons.tsx';" },
        { file: 'site-template/src/lib/shared-client.ts', text: "export * from '../../../shared/src/constants.ts';" },
        { file: 'vitest.config.ts', text: "import { z } from './control-api/src/z.ts';" },
        { file: 'control-api/api-launch.mjs', text: "import { w } from '../../elsewhere/w.mjs';" },
      ],
      WORKSPACES,
    );
    expect(found.map(({ file, line, to }) => `${file}:${line} ${to}`)).toEqual([
      'bench/seed.ts:1 control-api',
      'e2e/visitor.ts:2 bench',
      'site-template/src/lib/shared-client.ts:1 shared',
      'vitest.config.ts:1 control-api',
      'control-api/api-launch.mjs:1 (outside the repository)',
    ]);
    expect(formatCrossPackageImport(found[0]!)).toBe(
      "bench/seed.ts:1 imports '../control-api/src/site-records/site-records.repository.ts', a path into control-api: import the package's entry point instead",
    );
  });
});

describe('the check on a repository', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  function write(file: string, text: string): void {
    mkdirSync(path.dirname(path.join(dir!, file)), { recursive: true });
    writeFileSync(path.join(dir!, file), text);
  }

  it('reads the workspaces from package.json and the files git knows of, leaving ignored build output out', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'dropsite-package-imports-'));
    execFileSync('git', ['init', '-q'], { cwd: dir });
    write('package.json', JSON.stringify({ workspaces: ['app', 'lib'] }));
    write('.gitignore', 'dist\n');
    write('lib/src/index.ts', 'export const one = 1;\n');
    write('app/src/main.ts', "import { one } from '@example/lib';\n");
    write('app/dist/main.js', "import { one } from '../../lib/src/index.ts';\n");
    expect(checkPackageImports(dir)).toEqual([]);

    write('app/src/reach.ts', "import { one } from '../../lib/src/index.ts';\n");
    expect(checkPackageImports(dir)).toEqual([{ file: 'app/src/reach.ts', line: 1, specifier: '../../lib/src/index.ts', from: 'app', to: 'lib' }]);
  });
});
