import { describe, expect, it } from 'vitest';
import { score } from '#machines/items/score.ts';
import { importQti } from '#server/lib/items/qti-import.ts';
import { choiceQti3 } from './support/qti-fixtures.ts';
import { manifestFor, rawZip } from './support/raw-zip.ts';

const NS3 = 'xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0"';
const NS21 = 'xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" xmlns:m="http://www.w3.org/1998/Math/MathML"';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

const item3 = (body: string, declarations = '', processing = '', attrs = '') =>
  `<qti-assessment-item ${NS3} identifier="t" title="T" time-dependent="false" ${attrs}>${declarations}<qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/><qti-item-body>${body}</qti-item-body>${processing}</qti-assessment-item>`;
const single =
  '<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier"><qti-correct-response><qti-value>A</qti-value></qti-correct-response></qti-response-declaration>';
const matchCorrect = '<qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"/>';

async function importXml(xml: string) {
  return importQti(Buffer.from(xml), { fileName: 'item.xml' });
}

describe('importQti: what has no kind is reported, never guessed', () => {
  it.each([
    [
      'qti-inline-choice-interaction',
      '<p>Pick <qti-inline-choice-interaction response-identifier="RESPONSE"><qti-inline-choice identifier="A">a</qti-inline-choice></qti-inline-choice-interaction></p>',
    ],
    [
      'qti-gap-match-interaction',
      '<qti-gap-match-interaction response-identifier="RESPONSE"><qti-gap-text identifier="A" match-max="1">a</qti-gap-text><p><qti-gap identifier="G"/></p></qti-gap-match-interaction>',
    ],
    [
      'qti-hotspot-interaction',
      '<qti-hotspot-interaction response-identifier="RESPONSE" max-choices="1"><img src="m.png" alt=""/><qti-hotspot-choice identifier="A" shape="circle" coords="1,1,1"/></qti-hotspot-interaction>',
    ],
    [
      'qti-hottext-interaction',
      '<qti-hottext-interaction response-identifier="RESPONSE"><p><qti-hottext identifier="A">word</qti-hottext></p></qti-hottext-interaction>',
    ],
    [
      'qti-associate-interaction',
      '<qti-associate-interaction response-identifier="RESPONSE"><qti-simple-associable-choice identifier="A" match-max="1">a</qti-simple-associable-choice></qti-associate-interaction>',
    ],
    ['qti-slider-interaction', '<qti-slider-interaction response-identifier="RESPONSE" lower-bound="0" upper-bound="10"/>'],
    ['qti-upload-interaction', '<qti-upload-interaction response-identifier="RESPONSE"/>'],
    ['qti-portable-custom-interaction', '<qti-portable-custom-interaction response-identifier="RESPONSE" custom-interaction-type-identifier="x"/>'],
    ['qti-end-attempt-interaction', '<qti-end-attempt-interaction response-identifier="RESPONSE" title="Hint"/>'],
  ])('should report %s by name', async (name, body) => {
    const { items, unmapped } = await importXml(item3(body, single, matchCorrect));
    expect(items).toEqual([]);
    expect(unmapped).toEqual([{ identifier: 't', title: 'T', source: 'item.xml', reasons: [`${name} has no matching item kind`] }]);
  });

  it('should report a composite item with its interaction count', async () => {
    const body =
      '<qti-choice-interaction response-identifier="RESPONSE" max-choices="1"><qti-simple-choice identifier="A">a</qti-simple-choice><qti-simple-choice identifier="B">b</qti-simple-choice></qti-choice-interaction><p><qti-text-entry-interaction response-identifier="R2"/></p>';
    const { unmapped } = await importXml(item3(body, single, matchCorrect));
    expect(unmapped[0].reasons).toEqual(['2 interactions in one item (composite items have no matching kind)']);
  });

  it('should report template variables and adaptive items together', async () => {
    const body =
      '<qti-choice-interaction response-identifier="RESPONSE" max-choices="1"><qti-simple-choice identifier="A">a</qti-simple-choice><qti-simple-choice identifier="B">b</qti-simple-choice></qti-choice-interaction>';
    const xml = item3(body, `${single}<qti-template-declaration identifier="X" cardinality="single" base-type="integer"/>`, matchCorrect, 'adaptive="true"');
    const { unmapped } = await importXml(xml);
    expect(unmapped[0].reasons).toEqual([
      'adaptive items (several attempts with changing scores) are not supported; template variables (generated item variants) are not supported',
    ]);
  });

  it('should name a response-processing operator it does not evaluate', async () => {
    const decl =
      '<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string"><qti-correct-response><qti-value>42</qti-value></qti-correct-response></qti-response-declaration>';
    const rp = `<qti-response-processing><qti-response-condition><qti-response-if><qti-pattern-match pattern="[0-9]+"><qti-variable identifier="RESPONSE"/></qti-pattern-match><qti-set-outcome-value identifier="SCORE"><qti-base-value base-type="float">1</qti-base-value></qti-set-outcome-value></qti-response-if></qti-response-condition></qti-response-processing>`;
    const { unmapped } = await importXml(item3('<p><qti-text-entry-interaction response-identifier="RESPONSE"/></p>', decl, rp));
    expect(unmapped[0].reasons).toEqual(['response processing uses qti-pattern-match, which is not supported']);
  });

  it('should report a numeric range written with gte/lte, whose scoring our numeric rule does not reproduce', async () => {
    const decl =
      '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="float"><correctResponse><value>10</value></correctResponse></responseDeclaration>';
    const rp = `<responseProcessing><responseCondition><responseIf><and><gte><variable identifier="RESPONSE"/><baseValue baseType="float">9.5</baseValue></gte><lte><variable identifier="RESPONSE"/><baseValue baseType="float">10.5</baseValue></lte></and><setOutcomeValue identifier="SCORE"><baseValue baseType="float">1</baseValue></setOutcomeValue></responseIf></responseCondition></responseProcessing>`;
    const xml = `<assessmentItem ${NS21} identifier="range" title="Range" adaptive="false" timeDependent="false">${decl}<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/><itemBody><p><textEntryInteraction responseIdentifier="RESPONSE"/></p></itemBody>${rp}</assessmentItem>`;
    const { items, unmapped } = await importXml(xml);
    expect(items).toEqual([]);
    expect(unmapped[0].reasons[0]).toMatch(
      /^its scoring cannot be expressed with our marking rules: for the response 10\.0+1 the package gives 1 and the mapped item 0$/,
    );
  });
});

describe('importQti: foreign response processing that maps', () => {
  it('should read a QTI 2.1 numeric entry with an absolute tolerance written with equal', async () => {
    const xml = `<assessmentItem ${NS21} identifier="g" title="g" adaptive="false" timeDependent="false">
      <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="float"><correctResponse><value>9.8</value></correctResponse></responseDeclaration>
      <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
      <itemBody><p>g = <textEntryInteraction responseIdentifier="RESPONSE"/> m/s²</p></itemBody>
      <responseProcessing><responseCondition><responseIf><equal toleranceMode="absolute" tolerance="0.1"><variable identifier="RESPONSE"/><correct identifier="RESPONSE"/></equal>
        <setOutcomeValue identifier="SCORE"><baseValue baseType="integer">2</baseValue></setOutcomeValue></responseIf></responseCondition></responseProcessing>
    </assessmentItem>`;
    const { items } = await importXml(xml);
    expect(items[0].content).toMatchObject({
      kind: 'numeric',
      answer: 9.8,
      tolerance: { mode: 'absolute', value: 0.1 },
      marking: { correct: 2, wrong: 0, unanswered: 0 },
      variants: { en: { stem: '<p>g = <span data-gap="RESPONSE"></span> m/s²</p>' } },
    });
    expect(score(items[0].content, '9.75').score).toBe(2);
    expect(score(items[0].content, '9.95').score).toBe(0);
  });

  it('should read Moodle-style inline map_response rules with integer values', async () => {
    const xml = `<assessmentItem ${NS21} identifier="cap" title="Capital" adaptive="false" timeDependent="false">
      <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string"><correctResponse><value>Delhi</value></correctResponse>
        <mapping lowerBound="0" upperBound="1" defaultValue="0"><mapEntry mapKey="Delhi" mappedValue="1" caseSensitive="false"/><mapEntry mapKey="New Delhi" mappedValue="1" caseSensitive="false"/></mapping></responseDeclaration>
      <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
      <itemBody><p>Capital of India?</p><div class="interactive.textEntry"><textEntryInteraction responseIdentifier="RESPONSE" expectedLength="15"/></div></itemBody>
      <responseProcessing><responseCondition><responseIf><isNull><variable identifier="RESPONSE"/></isNull><setOutcomeValue identifier="SCORE"><baseValue baseType="integer">0</baseValue></setOutcomeValue></responseIf>
        <responseElse><setOutcomeValue identifier="SCORE"><mapResponse identifier="RESPONSE"/></setOutcomeValue></responseElse></responseCondition></responseProcessing>
    </assessmentItem>`;
    const { items } = await importXml(xml);
    expect(items[0].content).toMatchObject({
      kind: 'shortText',
      variants: { en: { stem: '<p>Capital of India?</p>' } },
      answers: [
        { text: 'Delhi', caseSensitive: false, credit: 1 },
        { text: 'New Delhi', caseSensitive: false, credit: 1 },
      ],
      expectedLength: 15,
    });
    expect(score(items[0].content, 'new delhi').score).toBe(1);
  });

  it('should read several text entries summed with mapResponse as fill in the blanks with per-gap credit', async () => {
    const decl = (id: string, answer: string) =>
      `<qti-response-declaration identifier="${id}" cardinality="single" base-type="string"><qti-correct-response><qti-value>${answer}</qti-value></qti-correct-response><qti-mapping default-value="0"><qti-map-entry map-key="${answer}" mapped-value="1" case-sensitive="false"/></qti-mapping></qti-response-declaration>`;
    const rp =
      '<qti-response-processing><qti-set-outcome-value identifier="SCORE"><qti-sum><qti-map-response identifier="R1"/><qti-map-response identifier="R2"/></qti-sum></qti-set-outcome-value></qti-response-processing>';
    const { items, unmapped } = await importXml(
      item3(
        '<p>Water is <qti-text-entry-interaction response-identifier="R1"/> and <qti-text-entry-interaction response-identifier="R2"/>.</p>',
        decl('R1', 'hydrogen') + decl('R2', 'oxygen'),
        rp,
      ),
    );
    expect(unmapped).toEqual([]);
    expect(items[0].content).toMatchObject({
      kind: 'fillInBlanks',
      marking: { correct: 2, wrong: 0, unanswered: 0 },
      partial: { perCorrect: 1, perWrong: 0, wrongCancels: false },
    });
    expect(score(items[0].content, { R1: 'Hydrogen', R2: 'neon' }).score).toBe(1);
    expect(score(items[0].content, { R1: 'hydrogen', R2: 'OXYGEN' }).score).toBe(2);
  });

  it('should keep only trailing fixed choices last and warn about a fixed choice elsewhere', async () => {
    const xml = choiceQti3.replace('<qti-simple-choice identifier="ChoiceA">', '<qti-simple-choice identifier="ChoiceA" fixed="true">');
    const { items } = await importXml(xml);
    expect((items[0].content as { options: unknown }).options).toEqual([
      { id: 'ChoiceA', keepLast: false },
      { id: 'ChoiceB', keepLast: false },
      { id: 'ChoiceC', keepLast: false },
      { id: 'ChoiceD', keepLast: true },
    ]);
    expect(items[0].warnings).toEqual(['a fixed choice that is not at the end will move with shuffling']);
  });

  it('should read a true/false choice by its true and false identifiers', async () => {
    const decl =
      '<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier"><qti-correct-response><qti-value>false</qti-value></qti-correct-response></qti-response-declaration>';
    const body =
      '<p>The Sun orbits the Earth.</p><qti-choice-interaction response-identifier="RESPONSE" max-choices="1"><qti-simple-choice identifier="true">True</qti-simple-choice><qti-simple-choice identifier="false">False</qti-simple-choice></qti-choice-interaction>';
    const { items } = await importXml(item3(body, decl, matchCorrect));
    expect(items[0].content).toEqual({
      kind: 'trueFalse',
      variants: { en: { stem: '<p>The Sun orbits the Earth.</p>' } },
      marking: { correct: 1, wrong: 0, unanswered: 0 },
      media: [],
      correct: false,
    });
  });
});

describe('importQti: packages, languages and media', () => {
  const bilingual = (lang: string, stem: string, image: string) =>
    Buffer.from(
      choiceQti3
        .replace('xml:lang="en-IN"', `xml:lang="${lang}"`)
        .replace('<p>Green plants take in one gas from the air to make their food.</p>', `<p>${stem}<img src="${image}" alt="leaf"/></p>`),
    );

  it('should join language variants of one identifier into one item and list its media as category-file candidates', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const zip = rawZip([
      { name: 'imsmanifest.xml', data: manifestFor(['items/en/q1.xml', 'items/hi/q1.xml']) },
      { name: 'items/en/q1.xml', data: bilingual('en', 'Plants.', '../img/leaf.png') },
      { name: 'items/hi/q1.xml', data: bilingual('hi', 'पौधे।', '../img/leaf%20hi.svg') },
      { name: 'items/img/leaf.png', data: PNG },
      { name: 'items/img/leaf hi.svg', data: svg },
      { name: 'items/img/unused.png', data: PNG },
    ]);
    const result = await importQti(zip);
    expect(result.unmapped).toEqual([]);
    expect(result.items).toHaveLength(1);
    const [item] = result.items;
    expect(item.sources).toEqual(['items/en/q1.xml', 'items/hi/q1.xml']);
    expect(Object.keys(item.content.variants)).toEqual(['en', 'hi']);
    expect(item.content.variants.hi.stem).toContain('<p>पौधे।<img src="media:items/img/leaf_hi.svg" alt="leaf" /></p>');
    expect(item.content.media).toEqual([
      { key: 'items/img/leaf.png', categoryFileId: null, fileName: 'leaf.png', mimeType: 'image/png' },
      { key: 'items/img/leaf_hi.svg', categoryFileId: null, fileName: 'leaf hi.svg', mimeType: 'image/svg+xml' },
    ]);
    expect(result.files.map(({ data, ...f }) => ({ ...f, size: data.length }))).toEqual([
      {
        key: 'items/img/leaf.png',
        path: 'items/img/leaf.png',
        fileName: 'leaf.png',
        mimeType: 'image/png',
        typeCheckedByContent: true,
        usedBy: ['photosynthesis-gas'],
        size: PNG.length,
      },
      {
        key: 'items/img/leaf_hi.svg',
        path: 'items/img/leaf hi.svg',
        fileName: 'leaf hi.svg',
        mimeType: 'image/svg+xml',
        typeCheckedByContent: false,
        usedBy: ['photosynthesis-gas'],
        size: svg.length,
      },
    ]);
  });

  it('should keep items apart when one identifier carries different questions', async () => {
    const other = choiceQti3.replace('<qti-value>ChoiceB</qti-value>', '<qti-value>ChoiceC</qti-value>').replace('xml:lang="en-IN"', 'xml:lang="hi"');
    const zip = rawZip([
      { name: 'imsmanifest.xml', data: manifestFor(['a.xml', 'b.xml']) },
      { name: 'a.xml', data: Buffer.from(choiceQti3) },
      { name: 'b.xml', data: Buffer.from(other) },
    ]);
    const { items } = await importQti(zip);
    expect(items.map((i) => [i.identifier, Object.keys(i.content.variants), (i.content as { correct: string }).correct])).toEqual([
      ['photosynthesis-gas', ['en'], 'ChoiceB'],
      ['photosynthesis-gas', ['hi'], 'ChoiceC'],
    ]);
  });

  it('should report a listed file that is missing and a test listed as an item', async () => {
    const zip = rawZip([
      { name: 'imsmanifest.xml', data: manifestFor(['gone.xml', 'test.xml']) },
      { name: 'test.xml', data: Buffer.from(`<qti-assessment-test ${NS3} identifier="T1" title="Test"/>`) },
    ]);
    const { unmapped } = await importQti(zip);
    expect(unmapped).toEqual([
      { identifier: 'r0', title: null, source: 'gone.xml', reasons: ['the manifest lists gone.xml, which is not in the package'] },
      { identifier: 'T1', title: 'Test', source: 'test.xml', reasons: ['qti-assessment-test is not an assessment item'] },
    ]);
  });

  it('should warn about media that is not in the package and about dropped feedback', async () => {
    const xml = choiceQti3.replace(
      '<p>Green plants take in one gas from the air to make their food.</p>',
      '<p>Look: <img src="images/missing.png" alt="gone"/></p><qti-feedback-block outcome-identifier="FEEDBACK" identifier="x" show-hide="show"><p>Well done</p></qti-feedback-block>',
    );
    const { items } = await importXml(xml);
    expect(items[0].warnings).toEqual([
      'the file images/missing.png is not in the package; the reference was left out',
      'qti-feedback-block was left out (no place for it in an item)',
    ]);
    expect(items[0].content.variants.en.stem).not.toContain('Well done');
  });

  it('should turn a QTI 2.1 object image into an img and keep MathML', async () => {
    const xml = `<assessmentItem ${NS21} identifier="m" title="Math" adaptive="false" timeDependent="false">
      <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>A</value></correctResponse></responseDeclaration>
      <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
      <itemBody><p>Solve <m:math><m:msup><m:mi>x</m:mi><m:mn>2</m:mn></m:msup><m:mo>=</m:mo><m:mn>4</m:mn></m:math></p><p><object type="image/png" data="graph.png">A graph</object></p>
        <choiceInteraction responseIdentifier="RESPONSE" maxChoices="1"><simpleChoice identifier="A">2</simpleChoice><simpleChoice identifier="B">3</simpleChoice></choiceInteraction></itemBody>
      <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/></assessmentItem>`;
    const zip = rawZip([
      {
        name: 'imsmanifest.xml',
        data: Buffer.from(
          '<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"><resources><resource identifier="x" type="imsqti_item_xmlv2p1" href="q/m.xml"/></resources></manifest>',
        ),
      },
      { name: 'q/m.xml', data: Buffer.from(xml) },
      { name: 'q/graph.png', data: PNG },
    ]);
    const { items } = await importQti(zip);
    expect(items[0].content.variants.en.stem).toBe(
      '<p>Solve <math><msup><mi>x</mi><mn>2</mn></msup><mo>=</mo><mn>4</mn></math></p><p><img src="media:q/graph.png" /></p>',
    );
  });
});
