/**
 * `node builder/src/precompress-cli.ts <folder>…`: writes `name.br` and `name.gz` next to every text
 * file under each folder that they make smaller. The dashboard's and the site template's builds
 * run it on their output, so the API (and an edge server) send those bytes as they are and
 * never compress a bundle per request.
 */
import path from 'node:path';
import { precompressDirectory } from './precompress.ts';

const folders = process.argv.slice(2);
if (folders.length === 0) {
  process.stderr.write('Usage: node builder/src/precompress-cli.ts <folder>…\n');
  process.exit(2);
}
for (const folder of folders) {
  const started = performance.now();
  const files = await precompressDirectory(path.resolve(folder));
  process.stdout.write(`Precompressed ${files} files in ${folder} (${Math.round(performance.now() - started)} ms)\n`);
}
