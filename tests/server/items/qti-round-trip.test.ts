import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ItemContent, MediaRef } from '#machines/items/item-schema.ts';
import { score } from '#machines/items/score.ts';
import { sanitizeItemHtml } from '#server/lib/items/item-html.ts';
import { exportQtiPackage, mediaFileName, type ExportItem } from '#server/lib/items/qti-export.ts';
import { importQti, type QtiImportResult } from '#server/lib/items/qti-import.ts';
import { readZip } from '#server/lib/items/qti-zip.ts';
import { itemContent, responseFor } from '#tests/machines/items/support/arbitraries.ts';
import { sampleItems } from '#tests/machines/items/support/sample-items.ts';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0e7d0b30000000049454e44ae426082',
  'hex',
);
const mediaBytes = async (ref: MediaRef) => Buffer.concat([PNG, Buffer.from(ref.key)]);

/** The imported items as export input, their media read back from the package's candidate files. */
function reexport(result: QtiImportResult): [ExportItem[], (ref: MediaRef) => Promise<Buffer | null>] {
  const files = new Map(result.files.map((f) => [f.key, f.data]));
  return [result.items.map((i) => ({ id: i.identifier, title: i.title, content: i.content })), async (ref) => files.get(ref.key) ?? null];
}

/** One spelling of equal HTML: through the allow list, attributes sorted, no self-closing slash. */
function canonicalHtml(html: string): string {
  return sanitizeItemHtml(html).replace(/<([a-z0-9]+)((?:\s+[a-z-]+="[^"]*")*)\s*\/?>/g, (_, tag: string, attrs: string) => {
    const sorted = (attrs.match(/[a-z-]+="[^"]*"/g) ?? []).sort();
    return `<${[tag, ...sorted].join(' ')}>`;
  });
}

/**
 * The item as the package carries it: media keys become package paths on import and file names
 * are made safe for a path, so compare by the exported file name, with HTML in one spelling.
 */
function comparable(content: ItemContent): unknown {
  const byKey = new Map(content.media.map((m) => [m.key, mediaFileName(m)]));
  const json = JSON.stringify(content).replace(/media:([A-Za-z0-9_./-]+)/g, (_, key: string) => `media:${byKey.get(key) ?? key}`);
  const parsed = JSON.parse(json) as ItemContent;
  const variants = Object.fromEntries(
    Object.entries(parsed.variants).map(([lang, v]) => [
      lang,
      {
        ...v,
        stem: canonicalHtml(v.stem),
        ...(v.choices ? { choices: Object.fromEntries(Object.entries(v.choices).map(([id, html]) => [id, canonicalHtml(html)])) } : {}),
        ...(v.rubric ? { rubric: canonicalHtml(v.rubric) } : {}),
      },
    ]),
  );
  // A zero tolerance is exact in either mode, and exports as exact.
  const tolerance = parsed.kind === 'numeric' && parsed.tolerance.value === 0 ? { tolerance: { mode: 'absolute', value: 0 } } : {};
  return { ...parsed, ...tolerance, variants, media: parsed.media.map(({ key: _key, ...rest }) => ({ ...rest, fileName: byKey.get(_key) })) };
}

async function zipText(zip: Buffer): Promise<Record<string, string>> {
  const files = await readZip(zip);
  return Object.fromEntries([...files].map(([name, data]) => [name, name.endsWith('.xml') ? data.toString('utf8') : data.toString('hex')]));
}

describe('QTI round trip', () => {
  it('should export, import and export the nine sample kinds to the same package bytes', async () => {
    const items = sampleItems.map((content, i) => ({ id: `sample-${i}`, title: content.kind, content }));
    const first = await exportQtiPackage(items, mediaBytes);
    const imported = await importQti(first);
    expect(imported.unmapped).toEqual([]);
    expect(imported.items.map((i) => i.content)).toEqual(sampleItems);
    const second = await exportQtiPackage(...reexport(imported));
    expect(second.equals(first)).toBe(true);
  });

  it('should give an equivalent package and the same scores for generated items and responses', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .array(itemContent, { minLength: 1, maxLength: 4 })
          .chain((items) => fc.tuple(fc.constant(items), fc.tuple(...items.map((item) => fc.array(responseFor(item), { minLength: 1, maxLength: 6 }))))),
        async ([contents, responses]) => {
          const items = contents.map((content, i) => ({ id: `gen-${i}`, title: `Generated ${i}`, content }));
          const first = await exportQtiPackage(items, mediaBytes);
          const imported = await importQti(first);
          expect(imported.unmapped).toEqual([]);
          expect(imported.items.map((i) => i.identifier)).toEqual(items.map((i) => i.id));
          imported.items.forEach((back, i) => {
            expect(comparable(back.content)).toEqual(comparable(contents[i]));
            for (const response of responses[i]) expect(score(back.content, response)).toEqual(score(contents[i], response));
          });
          const second = await exportQtiPackage(...reexport(imported));
          expect(await zipText(second)).toEqual(await zipText(first));
          expect(second.equals(first)).toBe(true);
        },
      ),
      { numRuns: Number(process.env.ROUND_TRIP_RUNS ?? 60) },
    );
  });
});
