/**
 * `node --import tsx scripts/bench/bundle-composition.ts [chunk-name-prefix…]`: builds the SPA
 * once, with source maps, into a temporary folder and lists which source modules a chunk's
 * minified bytes come from (the entry chunk when no prefix is given). Per module: its minified
 * bytes, and those bytes gzipped alone (level 9) — a module's share, not an exact split of the
 * chunk's gzip size, since gzip compresses across modules. Used to find what the first render
 * carries (docs/decisions/0064). Writes nothing to dist/.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { SourceMapConsumer, type MappingItem } from 'source-map-js';
import { build, type Plugin } from 'vite';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
const root = path.resolve(import.meta.dirname, '../..');

export interface ChunkComposition {
  file: string;
  isEntry: boolean;
  gzip: number;
  imports: string[];
  modules: Array<{ source: string; raw: number; gzip: number }>;
}

/** Minified bytes of `code` per original source, through its source map. */
function attribute(code: string, map: SourceMapConsumer, mapDir: string) {
  const lines = code.split('\n');
  const segments: MappingItem[] = [];
  map.eachMapping((m) => segments.push(m));
  segments.sort((a, b) => a.generatedLine - b.generatedLine || a.generatedColumn - b.generatedColumn);
  const parts = new Map<string, string[]>();
  segments.forEach((segment, i) => {
    const next = segments[i + 1];
    const line = lines[segment.generatedLine - 1] ?? '';
    const end = next && next.generatedLine === segment.generatedLine ? next.generatedColumn : line.length;
    const source = segment.source ? path.relative(root, path.resolve(mapDir, segment.source)) : '(bundler)';
    const list = parts.get(source) ?? [];
    list.push(line.slice(segment.generatedColumn, end));
    parts.set(source, list);
  });
  return [...parts]
    .map(([source, list]) => {
      const text = list.join('');
      return { source, raw: Buffer.byteLength(text), gzip: gzipSync(text, { level: 9 }).length };
    })
    .sort((a, b) => b.gzip - a.gzip);
}

export async function bundleComposition(): Promise<ChunkComposition[]> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'bundle-composition-'));
  const chunks: Array<Omit<ChunkComposition, 'gzip' | 'modules'>> = [];
  const collect: Plugin = {
    name: 'bundle-composition',
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk') chunks.push({ file: output.fileName, isEntry: output.isEntry, imports: output.imports });
      }
    },
  };
  try {
    await build({ root, logLevel: 'warn', plugins: [collect], build: { outDir, emptyOutDir: true, sourcemap: true } });
    return (
      await Promise.all(
        chunks.map(async (chunk) => {
          const file = path.join(outDir, chunk.file);
          // A chunk a later plugin renamed or dropped (none of the first render's) is skipped.
          const code = await readFile(file, 'utf8').catch(() => '');
          const gzip = gzipSync(code, { level: 9 }).length;
          // Helpers the bundler adds (the preload helper) come without a map.
          const mapText = await readFile(`${file}.map`, 'utf8').catch(() => null);
          if (!mapText) return { ...chunk, gzip, modules: [{ source: '(bundler, no source map)', raw: Buffer.byteLength(code), gzip }] };
          return { ...chunk, gzip, modules: attribute(code, new SourceMapConsumer(JSON.parse(mapText)), path.dirname(file)) };
        }),
      )
    ).sort((a, b) => b.gzip - a.gzip);
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const wanted = process.argv.slice(2);
  for (const chunk of await bundleComposition()) {
    const name = path.basename(chunk.file);
    if (wanted.length ? !wanted.some((w) => name.startsWith(w)) : !chunk.isEntry) continue;
    console.log(`${chunk.file}  ${kb(chunk.gzip)} gzip${chunk.isEntry ? ' (entry)' : ''}`);
    console.log(`  imports: ${chunk.imports.map((i) => path.basename(i)).join(', ') || '—'}`);
    const shown = chunk.modules.filter((m) => m.gzip >= 150);
    for (const m of shown) console.log(`  ${kb(m.raw).padStart(10)} min ${kb(m.gzip).padStart(9)} gzip  ${m.source}`);
    const small = chunk.modules.filter((m) => m.gzip < 150);
    if (small.length)
      console.log(
        `  ${kb(small.reduce((t, m) => t + m.raw, 0)).padStart(10)} min ${kb(small.reduce((t, m) => t + m.gzip, 0)).padStart(9)} gzip  ${small.length} smaller modules`,
      );
  }
  process.exit(0);
}
