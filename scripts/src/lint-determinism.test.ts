/**
 * The lint gives the same verdict on the same commit, built or not. Biome turns its React rules on
 * for a file when it guesses, from the package manifests it finds, that React is in use; that guess
 * changed with what a build and a run had left on disk, and five `biome-ignore` comments for React
 * rules then had "no effect" (a warning the lint fails on). biome.jsonc now says where the React
 * rules apply: these tests lint a tree whose manifests name no React at all, and the real files.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const BIOME = path.join(ROOT, 'node_modules/.bin/biome');

async function biomeCheck(cwd: string, paths: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(BIOME, ['check', '--error-on-warnings', '--colors=off', ...paths], { cwd });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

/** A list component whose React rule is suppressed, as the dashboard's and the template's are. */
const COMPONENT = `export function Rows({ rows }: { rows: string[] }) {
  return (
    <ul>
      {rows.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the rows never move: the position is the identity
        <li key={i}>{row}</li>
      ))}
    </ul>
  );
}
`;

/** A function whose name starts with "use" outside any component: no hook in an API. */
const API_MODULE = `async function useToken(token: string): Promise<string> {
  return token.trim();
}

export async function verify(token: string): Promise<string> {
  const used = await useToken(token);
  return used;
}
`;

describe('the lint is deterministic', () => {
  let tree: string;
  beforeAll(async () => {
    tree = await mkdtemp(path.join(os.tmpdir(), 'dropsite-lint-'));
    await run('git', ['init', '-q'], { cwd: tree });
    await copyFile(path.join(ROOT, 'biome.jsonc'), path.join(tree, 'biome.jsonc'));
    await writeFile(path.join(tree, '.gitignore'), 'dist\n');
    // Manifests from which no React can be guessed, where the real ones name it (or name it where no components are).
    await writeFile(path.join(tree, 'package.json'), '{ "name": "tree", "private": true }\n');
    for (const workspace of ['dashboard', 'site-template']) {
      await mkdir(path.join(tree, workspace, 'src'), { recursive: true });
      await writeFile(path.join(tree, workspace, 'package.json'), `{ "name": "${workspace}", "private": true }\n`);
      await writeFile(path.join(tree, workspace, 'src/rows.tsx'), COMPONENT);
    }
    await mkdir(path.join(tree, 'control-api/src'), { recursive: true });
    await writeFile(path.join(tree, 'control-api/package.json'), '{ "name": "control-api", "private": true, "dependencies": { "react": "*" } }\n');
    await writeFile(path.join(tree, 'control-api/src/tokens.ts'), API_MODULE);
  });
  afterAll(async () => {
    await rm(tree, { recursive: true, force: true });
  });

  it('applies the React rules to dashboard and site-template, and only there, whatever the manifests say', async () => {
    const { code, output } = await biomeCheck(tree, ['dashboard/src', 'site-template/src', 'control-api/src']);
    expect(output).not.toContain('suppressions/unused');
    expect(output).not.toContain('useHookAtTopLevel');
    expect(code).toBe(0);
  });

  it('passes on the files whose React suppressions once had no effect', async () => {
    const { code, output } = await biomeCheck(ROOT, ['dashboard/src/public/pages/blog.tsx', 'site-template/src/components/viewers/text/TextViewer.tsx']);
    expect(output).not.toContain('suppressions/unused');
    expect(code).toBe(0);
  });
});
