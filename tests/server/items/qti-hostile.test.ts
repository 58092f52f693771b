import { describe, expect, it } from 'vitest';
import { importQti } from '#server/lib/items/qti-import.ts';
import { QtiInputError } from '#server/lib/items/qti-xml.ts';
import { readZip } from '#server/lib/items/qti-zip.ts';
import { choiceQti3 } from './support/qti-fixtures.ts';
import { manifestFor, rawZip } from './support/raw-zip.ts';

const item = Buffer.from(choiceQti3);
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(QtiInputError);
      return (error as Error).message;
    },
  );

describe('importQti: XML entities and DTDs', () => {
  it('should refuse an external entity (XXE) with a clear message', async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><qti-assessment-item identifier="x">&xxe;</qti-assessment-item>`;
    expect(await refusal(importQti(Buffer.from(xxe), { fileName: 'x.xml' }))).toBe(
      'x.xml has a DOCTYPE or ENTITY declaration; QTI files are accepted without DTDs or entities',
    );
  });

  it('should refuse the billion laughs before expanding anything', async () => {
    const laughs = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const xml = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">${laughs}]><qti-assessment-item>&lol9;</qti-assessment-item>`;
    const started = performance.now();
    expect(await refusal(importQti(Buffer.from(xml), { fileName: 'lol.xml' }))).toMatch(/has a DOCTYPE or ENTITY declaration/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('should refuse a lower-case doctype pointing at an external DTD', async () => {
    const xml = `<?xml version="1.0"?><!doctype qti-assessment-item SYSTEM "http://127.0.0.1/evil.dtd"><qti-assessment-item/>`;
    expect(await refusal(importQti(Buffer.from(xml)))).toMatch(/DOCTYPE/);
  });

  it('should report an item with a DOCTYPE inside a package and import the others', async () => {
    const evil = Buffer.from(`<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/hostname">]><qti-assessment-item>&e;</qti-assessment-item>`);
    const zip = rawZip([
      { name: 'imsmanifest.xml', data: manifestFor(['items/good.xml', 'items/evil.xml']) },
      { name: 'items/good.xml', data: item },
      { name: 'items/evil.xml', data: evil },
    ]);
    const result = await importQti(zip);
    expect(result.items.map((i) => i.identifier)).toEqual(['photosynthesis-gas']);
    expect(result.unmapped).toEqual([
      {
        identifier: 'r1',
        title: null,
        source: 'items/evil.xml',
        reasons: ['items/evil.xml has a DOCTYPE or ENTITY declaration; QTI files are accepted without DTDs or entities'],
      },
    ]);
  });

  it('should refuse a manifest with a DOCTYPE', async () => {
    const zip = rawZip([{ name: 'imsmanifest.xml', data: Buffer.from('<!DOCTYPE m [<!ENTITY a "b">]><manifest/>') }]);
    expect(await refusal(importQti(zip))).toMatch(/^imsmanifest.xml has a DOCTYPE/);
  });

  it('should refuse XML that is not well-formed, saying where', async () => {
    expect(await refusal(importQti(Buffer.from('<qti-assessment-item><p></qti-assessment-item>'), { fileName: 'bad.xml' }))).toMatch(
      /^bad.xml is not well-formed XML: /,
    );
  });

  it('should refuse an XML file over the size limit without parsing it', async () => {
    const big = Buffer.from(`<qti-assessment-item>${'<p>x</p>'.repeat(600_000)}</qti-assessment-item>`);
    expect(await refusal(importQti(big, { fileName: 'big.xml' }))).toMatch(/^big.xml is \d+ bytes; an XML file may have at most 4194304$/);
  });
});

describe('importQti: zip slip', () => {
  it.each(['../evil.xml', '/etc/cron.d/evil', 'items/../../evil.xml', 'C:/Windows/evil.xml', 'items\\..\\..\\evil.xml'])(
    'should refuse the package when an entry is named %j',
    async (name) => {
      const zip = rawZip([
        { name: 'imsmanifest.xml', data: manifestFor(['items/a.xml']) },
        { name: 'items/a.xml', data: item },
        { name, data: Buffer.from('owned') },
      ]);
      expect(await refusal(importQti(zip))).toBe(`unsafe path in the package: "${name}"`);
    },
  );

  it('should report a manifest resource that points outside the package', async () => {
    const zip = rawZip([
      { name: 'imsmanifest.xml', data: manifestFor(['../outside.xml']) },
      { name: 'items/a.xml', data: item },
    ]);
    const result = await importQti(zip);
    expect(result.unmapped).toEqual([{ identifier: 'r0', title: null, source: '../outside.xml', reasons: ['unsafe path in the manifest: "../outside.xml"'] }]);
  });

  it('should not resolve media outside the package from an item', async () => {
    const withImage = choiceQti3.replace('<p>Green plants', '<p><img src="../../etc/passwd" alt=""/>Green plants');
    const zip = rawZip([
      { name: 'imsmanifest.xml', data: manifestFor(['items/a.xml']) },
      { name: 'items/a.xml', data: Buffer.from(withImage) },
    ]);
    const result = await importQti(zip);
    expect(result.files).toEqual([]);
    expect(result.items[0].content.variants.en.stem).not.toContain('passwd');
    expect(result.items[0].warnings).toContain('the file ../../etc/passwd is not in the package; the reference was left out');
  });
});

describe('importQti: zip bombs', () => {
  const zeros = (mib: number) => Buffer.alloc(mib * 1024 * 1024);

  it('should refuse an entry that declares more than the per-entry limit', async () => {
    const zip = rawZip([
      { name: 'imsmanifest.xml', data: manifestFor([]) },
      { name: 'big.bin', data: zeros(51) },
    ]);
    expect(await refusal(importQti(zip))).toBe('big.bin declares 53477376 bytes; an entry may have at most 52428800');
  });

  it('should refuse an entry whose compression ratio is that of a bomb', async () => {
    const zip = rawZip([
      { name: 'imsmanifest.xml', data: manifestFor([]) },
      { name: 'ratio.bin', data: zeros(20) },
    ]);
    expect(await refusal(importQti(zip))).toMatch(/^ratio\.bin would inflate \d+-fold; refused as a zip bomb$/);
  });

  it('should stop inflating at the declared size when the declared size lies', async () => {
    const zip = rawZip([
      { name: 'imsmanifest.xml', data: manifestFor([]) },
      { name: 'liar.bin', data: zeros(8), declaredSize: 1000 },
    ]);
    expect(await refusal(importQti(zip))).toMatch(
      /^liar\.bin (inflates beyond its declared size of 1000 bytes|does not match its declared size .*); refused as a zip bomb$/,
    );
  });

  it('should refuse a package whose entries declare more than the total limit', async () => {
    const entries = [
      { name: 'imsmanifest.xml', data: manifestFor([]) },
      ...Array.from({ length: 3 }, (_, i) => ({ name: `f${i}.bin`, data: Buffer.alloc(1024), declaredSize: 0 })),
    ];
    const limits = { packageBytes: 1e9, entries: 100, entryBytes: 1e9, totalBytes: 2500, ratio: 1e9 };
    await expect(readZip(rawZip(entries), limits)).rejects.toThrow(/^f\d\.bin (inflates beyond its declared size of 0 bytes|does not match its declared size)/);
    const honest = [
      { name: 'imsmanifest.xml', data: manifestFor([]) },
      ...Array.from({ length: 3 }, (_, i) => ({ name: `f${i}.bin`, data: Buffer.alloc(1024) })),
    ];
    await expect(readZip(rawZip(honest), limits)).rejects.toThrow('the package declares more than 2500 bytes in total');
  });

  it('should refuse a package with more entries than allowed before reading any', async () => {
    const entries = Array.from({ length: 10_001 }, (_, i) => ({ name: `f/${i}.txt`, data: Buffer.from('x'), deflate: false }));
    expect(await refusal(importQti(rawZip(entries)))).toBe('the package has 10001 entries; at most 10000 are accepted');
  });

  it('should refuse a package that holds one name twice', async () => {
    const zip = rawZip([
      { name: 'imsmanifest.xml', data: manifestFor([]) },
      { name: 'imsmanifest.xml', data: manifestFor(['x.xml']) },
    ]);
    expect(await refusal(importQti(zip))).toBe('the package holds "imsmanifest.xml" twice');
  });

  it('should refuse a zip without a manifest and bytes that are not a zip', async () => {
    expect(await refusal(importQti(rawZip([{ name: 'a.xml', data: item }])))).toBe('not an IMS content package: imsmanifest.xml is missing');
    const broken = Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(100, 7)]);
    expect(await refusal(importQti(broken))).toMatch(/^not a readable zip file: /);
  });
});

describe('importQti: script in content', () => {
  const payloads = [
    '<script>alert(1)</script>',
    '<img src="x" onerror="alert(2)"/>',
    '<a href="javascript:alert(3)">link</a>',
    '<iframe src="https://127.0.0.1/"></iframe>',
    '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(4)"><circle r="1"/></svg>',
    '<span style="background:url(javascript:alert(5))">s</span>',
    '<math xmlns="http://www.w3.org/1998/Math/MathML"><mtext><img src="x" onerror="alert(6)"/></mtext></math>',
    '<object data="javascript:alert(7)"></object>',
    '<p onclick="alert(8)">click</p>',
  ];

  it('should strip every payload from stems, prompts and choices', async () => {
    const hostile = choiceQti3
      .replace('<p>Green plants', `${payloads.join('')}<p>Green plants`)
      .replace('<qti-prompt>Which gas is it?', `<qti-prompt>${payloads.join('')}Which gas is it?`)
      .replace('>Oxygen<', `>${payloads.join('')}Oxygen<`);
    const { items } = await importQti(Buffer.from(hostile));
    const content = JSON.stringify(items[0].content);
    for (const needle of ['<script', 'onerror', 'onload', 'onclick', 'javascript:', '<iframe', '<svg', 'style=', '<a ', '<object']) {
      expect(content).not.toContain(needle);
    }
    expect(items[0].content.variants.en.choices?.ChoiceA).toBe('<img />link<span>s</span><math><mtext><img /></mtext></math><img /><p>click</p>Oxygen');
  });
});
