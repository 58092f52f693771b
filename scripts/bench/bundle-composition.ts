/**
 * `node --import tsx scripts/bench/bundle-composition.ts [chunk-name-prefix…]`: builds the SPA
 * once into a temporary folder and lists, per output chunk, which source modules its bytes
 * come from (rendered code of each module, gzip level 9 of that module alone — a module's
 * share, not an exact split of the chunk's gzip size, since gzip compresses across modules).
 * Used to find what the first render carries (docs/decisions/0064). Writes nothing to dist/.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'vite';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
const root = path.resolve(import.meta.dirname, '../..');

interface ChunkReport {
  file: string;
  isEntry: boolean;
  gzip: number;
  imports: string[];
  dynamicImports: string[];
  modules: Array<{ id: string; gzip: number }>;
}

export async function bundleComposition(): Promise<ChunkReport[]> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'bundle-composition-'));
  const reports: ChunkReport[] = [];
  const collect: Plugin = {
    name: 'bundle-composition',
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        reports.push({
          file: output.fileName,
          isEntry: output.isEntry,
          gzip: gzipSync(output.code, { level: 9 }).length,
          imports: output.imports,
          dynamicImports: output.dynamicImports,
          modules: Object.entries(output.modules)
            .filter(([, m]) => m.code)
            .map(([id, m]) => ({
              id: path.relative(root, id.replace(/^\0/, '')),
              gzip: gzipSync(m.code ?? '', { level: 9 }).length,
            }))
            .sort((a, b) => b.gzip - a.gzip),
        });
      }
    },
  };
  try {
    await build({ root, logLevel: 'warn', plugins: [collect], build: { outDir, emptyOutDir: true, write: false } });
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
  return reports.sort((a, b) => b.gzip - a.gzip);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const wanted = process.argv.slice(2);
  const reports = await bundleComposition();
  for (const chunk of reports) {
    const name = path.basename(chunk.file);
    if (wanted.length ? !wanted.some((w) => name.startsWith(w)) : !chunk.isEntry) continue;
    console.log(`${chunk.file}  ${kb(chunk.gzip)} gzip${chunk.isEntry ? ' (entry)' : ''}`);
    console.log(`  imports: ${chunk.imports.map((i) => path.basename(i)).join(', ') || '—'}`);
    for (const m of chunk.modules) if (m.gzip >= 150) console.log(`  ${kb(m.gzip).padStart(10)}  ${m.id}`);
    const small = chunk.modules.filter((m) => m.gzip < 150);
    if (small.length) console.log(`  ${kb(small.reduce((t, m) => t + m.gzip, 0)).padStart(10)}  ${small.length} smaller modules`);
  }
  process.exit(0);
}
