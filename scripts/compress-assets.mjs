// After `vite build`: writes .gz and .br beside every text asset so the server sends
// precompressed files (no compression work per request).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '..', 'dist');
const compressible = /\.(js|css|html|svg|json|txt|map)$/;

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

let count = 0;
for await (const file of walk(dist)) {
  if (!compressible.test(file)) continue;
  const data = await readFile(file);
  if (data.length < 1024) continue;
  await writeFile(`${file}.gz`, gzipSync(data, { level: 9 }));
  await writeFile(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  count += 1;
}
console.log(`precompressed ${count} assets`);
