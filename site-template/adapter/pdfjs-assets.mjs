// @ts-check
/**
 * Self-hosted PDF.js data (decisions 6: no third-party requests): copies pdfjs-dist's CMaps,
 * standard fonts and wasm decoders into dist/client/_astro/ as flat, versioned names
 * (`pdfjs-{version}-{folder}-{file}`), because the asset route serves one level only. The
 * viewer's binary-data factory (components/viewers/pdf/pdf-library.ts) asks for these names.
 * Published once per template version with the island bundles; fetched only when a PDF needs them.
 */
import { copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PDFJS_DATA_FOLDERS = ['cmaps', 'standard_fonts', 'wasm'];

/** @returns {import('astro').AstroIntegration} */
export default function pdfjsAssets() {
  return {
    name: '@dropsite/pdfjs-assets',
    hooks: {
      'astro:build:done': async ({ dir }) => {
        const require = createRequire(import.meta.url);
        const packageJson = require.resolve('pdfjs-dist/package.json');
        const packageDir = path.dirname(packageJson);
        const { version } = JSON.parse(await readFile(packageJson, 'utf8'));
        const out = path.join(fileURLToPath(dir), '_astro');
        await mkdir(out, { recursive: true });
        for (const folder of PDFJS_DATA_FOLDERS) {
          for (const entry of await readdir(path.join(packageDir, folder), { withFileTypes: true })) {
            if (!entry.isFile() || entry.name.startsWith('LICENSE')) continue;
            await copyFile(path.join(packageDir, folder, entry.name), path.join(out, `pdfjs-${version}-${folder}-${entry.name}`));
          }
        }
      },
    },
  };
}
