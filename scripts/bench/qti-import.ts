/**
 * QTI import at scale (issue 16): a QTI 3.0 package of 1,000 items of all kinds, each with its own
 * image (and a Hindi variant where generated), is built by our export and then imported: unzip,
 * guarded XML parsing, mapping and scoring verification. Budget for the whole import of such a
 * package: ≤ 30 s; the server-side storage of items and category files is added by the item bank.
 */
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { ItemContent } from '#machines/items/item-schema.ts';
import { exportQtiPackage } from '#server/lib/items/qti-export.ts';
import { importQti } from '#server/lib/items/qti-import.ts';
import { itemContent } from '#tests/machines/items/support/arbitraries.ts';

const BUDGET_SECONDS = 30;
const PNG_HEAD = Buffer.from('89504e470d0a1a0a', 'hex');

function withImage(content: ItemContent, i: number): ItemContent {
  const key = `figure-${i}.png`;
  const media = [{ key, categoryFileId: null, fileName: key, mimeType: 'image/png' }];
  const variants = Object.fromEntries(
    Object.entries(content.variants).map(([lang, v]) => [
      lang,
      { ...v, stem: `${v.stem.replace(/<p><img[^>]*><\/p>/, '')}<p><img src="media:${key}" alt="Figure ${i}"></p>` },
    ]),
  );
  return { ...content, variants, media } as ItemContent;
}

export async function benchQtiImport(count = 1000) {
  const items = fc
    .sample(itemContent, { numRuns: count, seed: 1016 })
    .map((content, i) => ({ id: `bench-${i}`, title: `Bench item ${i}`, content: withImage(content, i) }));
  const images = new Map(items.map((item) => [item.content.media[0].key, Buffer.concat([PNG_HEAD, randomBytes(24 * 1024)])]));
  const exportStart = performance.now();
  const zip = await exportQtiPackage(items, async (ref) => images.get(ref.key) ?? null);
  const exportSeconds = (performance.now() - exportStart) / 1000;
  console.log(
    `  load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `qti: exported ${count} items (${items.reduce((n, i) => n + Object.keys(i.content.variants).length, 0)} item files, ${count} images) to ${(zip.length / 1024 / 1024).toFixed(1)} MiB in ${exportSeconds.toFixed(2)} s`,
  );

  const started = performance.now();
  const result = await importQti(zip);
  const seconds = (performance.now() - started) / 1000;
  const ok = result.items.length === count && result.unmapped.length === 0 && result.files.length === count;
  const verdict = ok && seconds <= BUDGET_SECONDS ? `✓ under ${BUDGET_SECONDS} s` : `✗ budget ${BUDGET_SECONDS} s (or items lost)`;
  console.log(
    `qti: imported ${result.items.length} items, ${result.unmapped.length} unmapped, ${result.files.length} category-file candidates in ${seconds.toFixed(2)} s (parse, map, verify; storage not included)  ${verdict}`,
  );
  if (!ok || seconds > BUDGET_SECONDS) process.exitCode = 1;
  return { seconds, exportSeconds, bytes: zip.length };
}
