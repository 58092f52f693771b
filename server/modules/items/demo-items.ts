import type { ItemContent } from '#machines/items/item-schema.ts';
import type { Queryable } from '#server/db/client.ts';
import { prepareContent } from './item-content.ts';
import { addHistory, insertItem, itemFlow } from './items-repository.ts';

/**
 * Demo items of the board project (server/db/demo-data.ts): every kind, in English, Hindi and
 * Gujarati (one Hindi variant missing on purpose), filed under the topics, at every point of the
 * item flow — drafts, in peer review, approved, an approved item with a version 2 draft, a
 * retired one — and a near-duplicate pair.
 */
const opts = (...ids: string[]) => ids.map((id) => ({ id, keepLast: false }));
const board = { correct: 1, wrong: 0, unanswered: 0 };

interface DemoItem {
  code: string;
  topic: string;
  difficulty: 'easy' | 'medium' | 'hard';
  cognitiveLevel: string;
  /** Where it stands: the flow path the demo walks it through. */
  walk: Array<'submit' | 'approve' | 'retire' | 'version2'>;
  content: ItemContent;
}

const demoItems: DemoItem[] = [
  {
    code: 'MATH-POLY-001',
    topic: 'Polynomials',
    difficulty: 'easy',
    cognitiveLevel: 'remember',
    walk: ['submit', 'approve', 'approve'],
    content: {
      kind: 'singleChoice',
      variants: {
        en: { stem: '<p>The degree of the polynomial 4x<sup>3</sup> − 2x + 7 is</p>', choices: { A: '1', B: '2', C: '3', D: '7' } },
        hi: { stem: '<p>बहुपद 4x<sup>3</sup> − 2x + 7 की घात है</p>', choices: { A: '1', B: '2', C: '3', D: '7' } },
        gu: { stem: '<p>બહુપદી 4x<sup>3</sup> − 2x + 7 ની ઘાત છે</p>', choices: { A: '1', B: '2', C: '3', D: '7' } },
      },
      marking: board,
      media: [],
      options: opts('A', 'B', 'C', 'D'),
      correct: 'C',
      shuffle: true,
    },
  },
  {
    code: 'MATH-QUAD-001',
    topic: 'Quadratic equations',
    difficulty: 'medium',
    cognitiveLevel: 'apply',
    walk: ['submit'],
    content: {
      kind: 'multipleChoice',
      variants: {
        en: { stem: '<p>Which of these are roots of x<sup>2</sup> − 5x + 6 = 0?</p>', choices: { A: '2', B: '3', C: '−2', D: '6' } },
        hi: { stem: '<p>इनमें से कौन-से x<sup>2</sup> − 5x + 6 = 0 के मूल हैं?</p>', choices: { A: '2', B: '3', C: '−2', D: '6' } },
        gu: { stem: '<p>આમાંથી કયા x<sup>2</sup> − 5x + 6 = 0 ના બીજ છે?</p>', choices: { A: '2', B: '3', C: '−2', D: '6' } },
      },
      marking: { correct: 2, wrong: 0, unanswered: 0 },
      media: [],
      options: opts('A', 'B', 'C', 'D'),
      correct: ['A', 'B'],
      minChoices: 0,
      maxChoices: 0,
      shuffle: true,
      partial: { perCorrect: 1, perWrong: 0, wrongCancels: true },
    },
  },
  {
    code: 'MATH-AP-001',
    topic: 'Arithmetic progressions',
    difficulty: 'medium',
    cognitiveLevel: 'apply',
    walk: ['submit', 'approve', 'approve', 'version2'],
    content: {
      kind: 'numeric',
      variants: {
        en: { stem: '<p>Find the 10th term of the AP 2, 7, 12, …</p>' },
        hi: { stem: '<p>समांतर श्रेढ़ी 2, 7, 12, … का 10वाँ पद ज्ञात कीजिए।</p>' },
        gu: { stem: '<p>સમાંતર શ્રેણી 2, 7, 12, … નું 10મું પદ શોધો.</p>' },
      },
      marking: { correct: 2, wrong: 0, unanswered: 0 },
      media: [],
      answer: 47,
      tolerance: { mode: 'absolute', value: 0 },
    },
  },
  {
    code: 'MATH-TRI-001',
    topic: 'Triangles',
    difficulty: 'easy',
    cognitiveLevel: 'understand',
    walk: [],
    content: {
      kind: 'trueFalse',
      variants: {
        en: { stem: '<p>All equilateral triangles are similar.</p>' },
        hi: { stem: '<p>सभी समबाहु त्रिभुज समरूप होते हैं।</p>' },
        gu: { stem: '<p>બધા સમબાજુ ત્રિકોણ સમરૂપ હોય છે.</p>' },
      },
      marking: board,
      media: [],
      correct: true,
    },
  },
  {
    code: 'MATH-CIR-001',
    topic: 'Circles',
    difficulty: 'medium',
    cognitiveLevel: 'remember',
    walk: ['submit', 'approve'],
    content: {
      kind: 'fillInBlanks',
      variants: {
        en: { stem: '<p>A tangent to a circle is <span data-gap="G1"></span> to the radius through the point of contact.</p>' },
        hi: { stem: '<p>वृत्त की स्पर्श रेखा स्पर्श बिंदु से जाने वाली त्रिज्या पर <span data-gap="G1"></span> होती है।</p>' },
        gu: { stem: '<p>વર્તુળનો સ્પર્શક સ્પર્શબિંદુમાંથી પસાર થતી ત્રિજ્યાને <span data-gap="G1"></span> હોય છે.</p>' },
      },
      marking: board,
      media: [],
      gaps: [
        {
          id: 'G1',
          answers: [
            { text: 'perpendicular', caseSensitive: false },
            { text: 'लंब', caseSensitive: false },
            { text: 'લંબ', caseSensitive: false },
          ],
          expectedLength: 15,
        },
      ],
      partial: null,
    },
  },
  {
    code: 'SCI-LIGHT-001',
    topic: 'Light: reflection and refraction',
    difficulty: 'easy',
    cognitiveLevel: 'remember',
    walk: ['submit', 'approve', 'approve'],
    content: {
      kind: 'shortText',
      variants: {
        en: { stem: '<p>Name the mirror used by dentists to see a larger image of teeth.</p>' },
        gu: { stem: '<p>દાંતનું મોટું પ્રતિબિંબ જોવા દંતચિકિત્સક કયો અરીસો વાપરે છે?</p>' },
      },
      marking: board,
      media: [],
      answers: [
        { text: 'concave mirror', caseSensitive: false, credit: 1 },
        { text: 'concave', caseSensitive: false, credit: 1 },
        { text: 'અંતર્ગોળ અરીસો', caseSensitive: false, credit: 1 },
      ],
      expectedLength: 20,
    },
  },
  {
    code: 'SCI-CHEM-001',
    topic: 'Acids, bases and salts',
    difficulty: 'medium',
    cognitiveLevel: 'understand',
    walk: ['submit'],
    content: {
      kind: 'matching',
      variants: {
        en: {
          stem: '<p>Match each substance with its nature.</p>',
          choices: { L1: 'Lemon juice', L2: 'Baking soda solution', L3: 'Distilled water', R1: 'Acidic', R2: 'Basic', R3: 'Neutral' },
        },
        hi: {
          stem: '<p>प्रत्येक पदार्थ का उसकी प्रकृति से मिलान कीजिए।</p>',
          choices: { L1: 'नींबू का रस', L2: 'खाने के सोडे का घोल', L3: 'आसुत जल', R1: 'अम्लीय', R2: 'क्षारीय', R3: 'उदासीन' },
        },
        gu: {
          stem: '<p>દરેક પદાર્થને તેના સ્વભાવ સાથે જોડો.</p>',
          choices: { L1: 'લીંબુનો રસ', L2: 'ખાવાના સોડાનું દ્રાવણ', L3: 'નિસ્યંદિત પાણી', R1: 'એસિડિક', R2: 'બેઝિક', R3: 'તટસ્થ' },
        },
      },
      marking: { correct: 3, wrong: 0, unanswered: 0 },
      media: [],
      left: opts('L1', 'L2', 'L3'),
      right: opts('R1', 'R2', 'R3'),
      pairs: [
        { left: 'L1', right: 'R1' },
        { left: 'L2', right: 'R2' },
        { left: 'L3', right: 'R3' },
      ],
      shuffle: true,
      partial: { perCorrect: 1, perWrong: 0, wrongCancels: false },
    },
  },
  {
    code: 'SCI-LIFE-001',
    topic: 'Life processes',
    difficulty: 'hard',
    cognitiveLevel: 'analyze',
    walk: ['submit', 'approve', 'approve'],
    content: {
      kind: 'ordering',
      variants: {
        en: {
          stem: '<p>Put the path of food through the alimentary canal in order.</p>',
          choices: { A: 'Mouth', B: 'Oesophagus', C: 'Stomach', D: 'Small intestine' },
        },
        hi: { stem: '<p>आहार नाल में भोजन के मार्ग को क्रम में लगाइए।</p>', choices: { A: 'मुख', B: 'ग्रसिका', C: 'आमाशय', D: 'क्षुद्रांत्र' } },
        gu: { stem: '<p>પાચનમાર્ગમાં ખોરાકનો માર્ગ ક્રમમાં ગોઠવો.</p>', choices: { A: 'મુખ', B: 'અન્નનળી', C: 'જઠર', D: 'નાનું આંતરડું' } },
      },
      marking: { correct: 2, wrong: 0, unanswered: 0 },
      media: [],
      options: opts('A', 'B', 'C', 'D'),
      correctOrder: ['A', 'B', 'C', 'D'],
      shuffle: true,
    },
  },
  {
    code: 'SCI-ENV-001',
    topic: 'Our environment',
    difficulty: 'hard',
    cognitiveLevel: 'evaluate',
    walk: [],
    content: {
      kind: 'essay',
      variants: {
        en: {
          stem: '<p>Why is the ozone layer important, and what is depleting it? Answer in about 80 words.</p>',
          rubric: '<ul><li>UV absorption (1)</li><li>CFCs named (1)</li><li>One measure (1)</li></ul>',
        },
        hi: {
          stem: '<p>ओज़ोन परत क्यों महत्वपूर्ण है और इसका क्षय क्या कर रहा है? लगभग 80 शब्दों में उत्तर दीजिए।</p>',
          rubric: '<ul><li>पराबैंगनी अवशोषण (1)</li><li>सीएफसी (1)</li><li>एक उपाय (1)</li></ul>',
        },
        gu: {
          stem: '<p>ઓઝોન સ્તર શા માટે મહત્વનું છે અને તેનો ક્ષય શાને કારણે થાય છે? આશરે 80 શબ્દોમાં જવાબ આપો.</p>',
          rubric: '<ul><li>UV શોષણ (1)</li><li>CFC (1)</li><li>એક ઉપાય (1)</li></ul>',
        },
      },
      marking: { correct: 3, wrong: 0, unanswered: 0 },
      media: [],
      wordLimit: 100,
    },
  },
  {
    code: 'SCI-ELEC-001',
    topic: 'Electricity',
    difficulty: 'medium',
    cognitiveLevel: 'apply',
    walk: ['submit', 'approve', 'approve'],
    content: {
      kind: 'singleChoice',
      variants: {
        en: { stem: '<p>What is the SI unit of electric resistance?</p>', choices: { A: 'Volt', B: 'Ampere', C: 'Ohm', D: 'Watt' } },
        hi: { stem: '<p>विद्युत प्रतिरोध का SI मात्रक क्या है?</p>', choices: { A: 'वोल्ट', B: 'ऐम्पियर', C: 'ओम', D: 'वाट' } },
        gu: { stem: '<p>વિદ્યુત અવરોધનો SI એકમ કયો છે?</p>', choices: { A: 'વોલ્ટ', B: 'એમ્પિયર', C: 'ઓહ્મ', D: 'વોટ' } },
      },
      marking: board,
      media: [],
      options: opts('A', 'B', 'C', 'D'),
      correct: 'C',
      shuffle: true,
    },
  },
  {
    code: 'SCI-ELEC-002',
    topic: 'Electricity',
    difficulty: 'medium',
    cognitiveLevel: 'remember',
    walk: [],
    content: {
      kind: 'singleChoice',
      variants: {
        en: { stem: '<p>What is the SI unit of electrical resistance?</p>', choices: { A: 'Ohm', B: 'Volt', C: 'Coulomb', D: 'Joule' } },
      },
      marking: board,
      media: [],
      options: opts('A', 'B', 'C', 'D'),
      correct: 'A',
      shuffle: true,
    },
  },
  {
    code: 'SCI-MAG-001',
    topic: 'Magnetic effects of current',
    difficulty: 'easy',
    cognitiveLevel: 'remember',
    walk: ['retire'],
    content: {
      kind: 'trueFalse',
      variants: { en: { stem: '<p>Magnetic field lines cross each other.</p>' }, hi: { stem: '<p>चुंबकीय क्षेत्र रेखाएँ एक-दूसरे को काटती हैं।</p>' } },
      marking: board,
      media: [],
      correct: false,
    },
  },
];

export async function seedDemoItems(
  tx: Queryable,
  context: { tenantId: string; projectId: number; author: string; reviewer: string; admin: string; languages: string[] },
): Promise<number> {
  const flow = await itemFlow(tx, context.projectId, null);
  const { rows: categories } = await tx.query<{ id: number; name: string }>(`select id::int as id, name from categories where project_id = $1`, [
    context.projectId,
  ]);
  const categoryOf = new Map(categories.map((c) => [c.name, c.id]));
  const stages = flow?.definition.stages ?? [];
  for (const demo of demoItems) {
    const content = prepareContent(demo.content);
    const id = await insertItem(
      tx,
      { tenantId: context.tenantId, projectId: context.projectId, userId: context.author },
      {
        code: demo.code,
        categoryId: categoryOf.get(demo.topic)!,
        difficulty: demo.difficulty,
        cognitiveLevel: demo.cognitiveLevel,
        content,
        flowId: flow?.flowId ?? null,
      },
      context.languages,
    );
    // The flow path, recorded as the review history would record it.
    let status = 'Draft';
    let stage = -1;
    for (const step of demo.walk) {
      const from = status;
      if (step === 'submit') {
        stage = 0;
        status = stages[0]?.id ?? 'Approved';
      } else if (step === 'approve') {
        stage += 1;
        status = stages[stage]?.id ?? 'Approved';
      } else if (step === 'retire') status = 'Retired';
      if (step === 'version2') {
        const next = { ...content, marking: { ...content.marking, correct: 3 } } as ItemContent;
        await tx.query(
          `with v as (insert into item_versions (item_id, number, content, languages, created_by) select $1, 2, $2, languages, $3 from item_versions where item_id = $1 and number = 1 returning id)
           update items set latest_version_id = (select id from v), version_number = 2, status = 'Draft', max_score = 3 where id = $1`,
          [id, JSON.stringify(next), context.author],
        );
        await addHistory(tx, id, 2, 'newVersion', 'Approved', 'Draft', 'Version 2 started from the approved version 1.', context.author);
        status = 'Draft';
        continue;
      }
      const by = step === 'submit' ? context.author : step === 'retire' || status === 'Approved' ? context.admin : context.reviewer;
      await tx.query(`update items set status = $2, version = version + 1 where id = $1`, [id, status]);
      if (status === 'Approved') {
        await tx.query(`update item_versions set approved_at = now(), approved_by = $2 where item_id = $1 and number = 1`, [id, by]);
        await tx.query(`update items set approved_version_id = latest_version_id where id = $1`, [id]);
      }
      await addHistory(tx, id, 1, step, from, status, step === 'approve' && status !== 'Approved' ? 'Key and distractors checked.' : '', by);
    }
  }
  return demoItems.length;
}
