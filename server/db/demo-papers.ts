import { createHash } from 'node:crypto';
import type { ItemContent } from '#machines/items/item-schema.ts';
import { computeBlueprint } from '#machines/papers/blueprint.ts';
import type { Difficulty, PaperItem, PaperSpec } from '#machines/papers/paper-records.ts';
import { generateSet, lockSnapshot, serializeSet } from '#machines/papers/paper-sets.ts';
import { deriveFields } from '#server/modules/items/item-content.ts';
import type { Queryable } from './client.ts';

/**
 * The demo paper (issue 17): a short Mathematics unit test of the board project's MATH-10 exam,
 * built from twelve approved trilingual items: section A fixes four quadratic-equation items,
 * section B draws two medium triangle items from six. It is locked (snapshot of the exact
 * versions) and has sets A–D generated from recorded seeds, so the flow, the blueprint, the set
 * comparison and the verification can be clicked through at once. A second paper, MATH-UT-2, is
 * in Draft with a blueprint warning, for the builder.
 */

type Question = [en: string, hi: string, gu: string, options: string[], difficulty: Difficulty];

const quadratic: Question[] = [
  [
    'What are the roots of x² − 5x + 6 = 0?',
    'x² − 5x + 6 = 0 के मूल क्या हैं?',
    'x² − 5x + 6 = 0 નાં બીજ કયાં છે?',
    ['2 and 3', '−2 and −3', '1 and 6', 'None of these'],
    'easy',
  ],
  ['The discriminant of 2x² + 3x + 1 = 0 is', '2x² + 3x + 1 = 0 का विविक्तकर है', '2x² + 3x + 1 = 0 નો વિવેચક છે', ['1', '17', '−1', 'None of these'], 'easy'],
  [
    'Which equation has equal roots?',
    'किस समीकरण के मूल बराबर हैं?',
    'કયા સમીકરણનાં બીજ સમાન છે?',
    ['x² − 4x + 4 = 0', 'x² − 4 = 0', 'x² + x + 1 = 0', 'All of the above'],
    'medium',
  ],
  [
    'The sum of the roots of x² − 7x + 10 = 0 is',
    'x² − 7x + 10 = 0 के मूलों का योग है',
    'x² − 7x + 10 = 0 નાં બીજનો સરવાળો છે',
    ['7', '10', '−7', 'None of these'],
    'medium',
  ],
  [
    'The product of the roots of 3x² − 12 = 0 is',
    '3x² − 12 = 0 के मूलों का गुणनफल है',
    '3x² − 12 = 0 નાં બીજનો ગુણાકાર છે',
    ['−4', '4', '12', 'None of these'],
    'easy',
  ],
  [
    'For which k does x² + kx + 9 = 0 have equal roots?',
    'k के किस मान के लिए x² + kx + 9 = 0 के मूल बराबर हैं?',
    'k ની કઈ કિંમત માટે x² + kx + 9 = 0 નાં બીજ સમાન છે?',
    ['±6', '±3', '9', 'None of these'],
    'medium',
  ],
];

const triangles: Question[] = [
  [
    'In △ABC, DE ∥ BC with AD = 2, DB = 3, AE = 4. Find EC.',
    '△ABC में DE ∥ BC, AD = 2, DB = 3, AE = 4 है। EC ज्ञात कीजिए।',
    '△ABC માં DE ∥ BC, AD = 2, DB = 3, AE = 4 છે. EC શોધો.',
    ['6', '5', '8', 'None of these'],
    'medium',
  ],
  [
    'The ratio of the areas of two similar triangles with sides in ratio 2 : 3 is',
    'दो समरूप त्रिभुजों की भुजाओं का अनुपात 2 : 3 है; उनके क्षेत्रफलों का अनुपात है',
    'બે સમરૂપ ત્રિકોણની બાજુઓનો ગુણોત્તર 2 : 3 છે; તેમનાં ક્ષેત્રફળનો ગુણોત્તર છે',
    ['4 : 9', '2 : 3', '8 : 27', 'None of these'],
    'medium',
  ],
  [
    'A right triangle has legs 6 and 8. Its hypotenuse is',
    'एक समकोण त्रिभुज की भुजाएँ 6 और 8 हैं। उसका कर्ण है',
    'એક કાટકોણ ત્રિકોણની બાજુઓ 6 અને 8 છે. તેનો કર્ણ છે',
    ['10', '12', '14', 'None of these'],
    'medium',
  ],
  [
    'Which criterion proves two triangles similar?',
    'कौन-सी कसौटी दो त्रिभुजों को समरूप सिद्ध करती है?',
    'કયો માપદંડ બે ત્રિકોણ સમરૂપ સાબિત કરે છે?',
    ['AAA', 'SSA', 'ASS', 'All of the above'],
    'medium',
  ],
  [
    'In △PQR, ∠P = 90°, PQ = 5, QR = 13. PR is',
    '△PQR में ∠P = 90°, PQ = 5, QR = 13 है। PR है',
    '△PQR માં ∠P = 90°, PQ = 5, QR = 13 છે. PR છે',
    ['12', '8', '18', 'None of these'],
    'medium',
  ],
  [
    'The diagonals of a rhombus are 16 and 12. Its side is',
    'एक समचतुर्भुज के विकर्ण 16 और 12 हैं। उसकी भुजा है',
    'એક સમબાજુ ચતુષ્કોણના વિકર્ણ 16 અને 12 છે. તેની બાજુ છે',
    ['10', '14', '20', 'None of these'],
    'medium',
  ],
];

const optionIds = ['A', 'B', 'C', 'D'];

/** The options' words in Hindi and Gujarati (numbers and formulas read the same in every language). */
const optionWords: Record<'hi' | 'gu', Array<[RegExp, string]>> = {
  hi: [
    [/None of these/, 'इनमें से कोई नहीं'],
    [/All of the above/, 'उपरोक्त सभी'],
    [/ and /, ' और '],
  ],
  gu: [
    [/None of these/, 'આમાંથી એક પણ નહીં'],
    [/All of the above/, 'ઉપરના બધા'],
    [/ and /, ' અને '],
  ],
};
const translated = (text: string, language: 'en' | 'hi' | 'gu') =>
  language === 'en' ? text : optionWords[language].reduce((out, [pattern, word]) => out.replace(pattern, word), text);

function content(q: Question): ItemContent {
  const [en, hi, gu, options] = q;
  const variant = (stem: string, language: 'en' | 'hi' | 'gu') => ({
    stem: `<p>${stem}</p>`,
    choices: Object.fromEntries(optionIds.map((id, i) => [id, `<p>${translated(options[i], language)}</p>`])),
  });
  return {
    kind: 'singleChoice',
    variants: { en: variant(en, 'en'), hi: variant(hi, 'hi'), gu: variant(gu, 'gu') },
    marking: { correct: 1, wrong: 0, unanswered: 0 },
    media: [],
    // The last option ("None of these" / "All of the above") stays last in every set.
    options: optionIds.map((id, i) => ({ id, keepLast: i === 3 })),
    correct: 'A',
    shuffle: true,
  };
}

export interface DemoPaperInput {
  tenantId: string;
  projectId: number;
  examId: number;
  author: string;
  setter: string;
  moderator: string;
}

export async function seedDemoPaper(tx: Queryable, input: DemoPaperInput): Promise<{ paperId: number; sets: string[]; draftPaperId: number }> {
  const category = async (name: string) =>
    (await tx.query<{ id: number }>(`select id::int as id from categories where project_id = $1 and name = $2`, [input.projectId, name])).rows[0].id;
  const cells = { quadratic: await category('Quadratic equations'), triangles: await category('Triangles') };
  const bank: PaperItem[] = [];
  const questions = [...quadratic.map((q) => [q, cells.quadratic] as const), ...triangles.map((q) => [q, cells.triangles] as const)];
  for (const [index, [question, categoryId]] of questions.entries()) {
    const item = content(question);
    const code = `DEMO-MATH-${String(index + 1).padStart(3, '0')}`;
    // The list's derived columns as the item bank writes them, so the bank's search finds these items too.
    const derived = deriveFields(item, code, ['en', 'hi', 'gu']);
    const languages = derived.languages;
    const { rows } = await tx.query<{ id: number }>(
      `insert into items (tenant_id, project_id, code, kind, category_id, difficulty, status, languages, primary_language, primary_stem, search_text, max_score, author_id, updated_by)
       values ($1, $2, $3, 'singleChoice', $4, $5, 'Approved', $6, $7, $8, $9, $10, $11, $11) returning id::int as id`,
      [
        input.tenantId,
        input.projectId,
        code,
        categoryId,
        question[4],
        languages,
        derived.primaryLanguage,
        derived.primaryStem,
        derived.searchText,
        derived.maxScore,
        input.author,
      ],
    );
    const itemId = rows[0].id;
    const version = await tx.query<{ id: number }>(
      `insert into item_versions (item_id, number, content, languages, created_by, approved_by, approved_at) values ($1, 1, $2, $3, $4, $4, now()) returning id::int as id`,
      [itemId, JSON.stringify(item), languages, input.author],
    );
    const versionId = version.rows[0].id;
    await tx.query(`update items set latest_version_id = $2, approved_version_id = $2 where id = $1`, [itemId, versionId]);
    bank.push({ versionId: String(versionId), itemId: String(itemId), categoryId: String(categoryId), difficulty: question[4], approved: true, content: item });
  }

  const fixed = bank.slice(0, 4).map((i) => Number(i.versionId));
  const instructions = {
    en: 'All questions are compulsory. Section A has 4 questions of 1 mark each; section B has 2 questions of 3 marks each.',
    hi: 'सभी प्रश्न अनिवार्य हैं। खंड क में 1 अंक के 4 प्रश्न हैं; खंड ख में 3 अंक के 2 प्रश्न हैं।',
    gu: 'બધા પ્રશ્નો ફરજિયાત છે. વિભાગ A માં 1 ગુણના 4 પ્રશ્નો છે; વિભાગ B માં 3 ગુણના 2 પ્રશ્નો છે.',
  };
  const { rows: paperRows } = await tx.query<{ id: number }>(
    `insert into papers (tenant_id, project_id, exam_id, code, title, duration_minutes, total_marks, instructions, navigation, calculator, mode, created_by, updated_by, version)
     values ($1, $2, $3, 'MATH-UT-1', 'Unit test 1: Quadratic equations and triangles', 40, 10, $4, 'free', true, 'online', $5, $5, 1) returning id::int as id`,
    [input.tenantId, input.projectId, input.examId, JSON.stringify(instructions), input.setter],
  );
  const paperId = paperRows[0].id;
  const sectionRows = [
    { position: 1, title: 'Section A: Quadratic equations', marks: 1, rule: { kind: 'fixed', items: fixed } },
    { position: 2, title: 'Section B: Triangles', marks: 3, rule: { kind: 'draw', draws: [{ categoryId: cells.triangles, difficulty: 'medium', count: 2 }] } },
  ];
  const sectionIds: number[] = [];
  for (const s of sectionRows) {
    const { rows } = await tx.query<{ id: number }>(
      `insert into paper_sections (paper_id, position, title, instructions, marks_per_item, rule, updated_by) values ($1, $2, $3, '{}', $4, $5, $6) returning id::int as id`,
      [paperId, s.position, s.title, s.marks, JSON.stringify(s.rule), input.setter],
    );
    sectionIds.push(rows[0].id);
  }
  const spec: PaperSpec = {
    totalMarks: 10,
    languages: ['en', 'hi', 'gu'],
    sections: [
      {
        id: String(sectionIds[0]),
        order: 1,
        title: sectionRows[0].title,
        marksPerItem: 1,
        attemptAny: null,
        shuffleItems: true,
        shuffleOptions: true,
        rule: { kind: 'fixed', items: fixed.map(String) },
      },
      {
        id: String(sectionIds[1]),
        order: 2,
        title: sectionRows[1].title,
        marksPerItem: 3,
        attemptAny: null,
        shuffleItems: true,
        shuffleOptions: true,
        rule: { kind: 'draw', draws: [{ categoryId: String(cells.triangles), difficulty: 'medium', count: 2 }] },
      },
    ],
  };
  const items = new Map(bank.map((i) => [i.versionId, i]));
  const blueprint = computeBlueprint(spec, items, bank);
  if (blueprint.blocking > 0) throw new Error(`demo paper: ${blueprint.warnings.map((w) => w.message).join(' ')}`);
  const snapshot = lockSnapshot(spec, items, bank);
  await tx.query(`update papers set status = 'Locked', snapshot = $2, locked_at = now(), locked_by = $3, version = 4 where id = $1`, [
    paperId,
    JSON.stringify(snapshot),
    input.moderator,
  ]);
  const letters = ['A', 'B', 'C', 'D'];
  for (const letter of letters) {
    const text = serializeSet(generateSet(snapshot, letter, `demo-math-ut-1-${letter}`));
    await tx.query(`insert into paper_sets (paper_id, letter, seed, content, sha256, created_by) values ($1, $2, $3, $4, $5, $6)`, [
      paperId,
      letter,
      `demo-math-ut-1-${letter}`,
      text,
      createHash('sha256').update(text).digest('hex'),
      input.setter,
    ]);
  }
  for (const [event, from, to, actor] of [
    ['paper.create', null, 'Draft', input.setter],
    ['paper.submit', 'Draft', 'Review', input.setter],
    ['paper.lock', 'Review', 'Locked', input.moderator],
    ['paper.generateSets', 'Locked', 'Locked', input.setter],
  ] as const) {
    await tx.query(`insert into paper_history (paper_id, event, from_status, to_status, actor_id) values ($1, $2, $3, $4, $5)`, [
      paperId,
      event,
      from,
      to,
      actor,
    ]);
  }
  const draftPaperId = await seedDraftPaper(tx, input, bank, cells.triangles);
  return { paperId, sets: letters, draftPaperId };
}

/**
 * A second paper of MATH-10, still in Draft: the builder's screens with something to do. Its
 * sections offer 8 marks where it declares 10, so its blueprint shows the blocking warning and
 * the setter sees why it cannot be locked yet.
 */
async function seedDraftPaper(tx: Queryable, input: DemoPaperInput, bank: PaperItem[], triangles: number): Promise<number> {
  const instructions = {
    en: 'Answer every question. Section B is drawn from the bank for each set.',
    hi: 'सभी प्रश्नों के उत्तर दीजिए। खंड ख हर सेट के लिए बैंक से चुना जाता है।',
    gu: 'બધા પ્રશ્નોના જવાબ આપો. વિભાગ B દરેક સેટ માટે બેંકમાંથી પસંદ થાય છે.',
  };
  const { rows } = await tx.query<{ id: number }>(
    `insert into papers (tenant_id, project_id, exam_id, code, title, duration_minutes, total_marks, instructions, navigation, calculator, mode, created_by, updated_by, version)
     values ($1, $2, $3, 'MATH-UT-2', 'Unit test 2: Roots and similar triangles', 45, 10, $4, 'sectional', true, 'offline', $5, $5, 3) returning id::int as id`,
    [input.tenantId, input.projectId, input.examId, JSON.stringify(instructions), input.setter],
  );
  const paperId = rows[0].id;
  const sections = [
    { position: 1, title: 'Section A: Roots', marks: 1, rule: { kind: 'fixed', items: [Number(bank[4].versionId), Number(bank[5].versionId)] } },
    {
      position: 2,
      title: 'Section B: Similar triangles',
      marks: 3,
      rule: { kind: 'draw', draws: [{ categoryId: triangles, difficulty: 'medium', count: 2 }] },
    },
  ];
  for (const s of sections) {
    await tx.query(
      `insert into paper_sections (paper_id, position, title, instructions, marks_per_item, rule, updated_by) values ($1, $2, $3, '{}', $4, $5, $6)`,
      [paperId, s.position, s.title, s.marks, JSON.stringify(s.rule), input.setter],
    );
  }
  await tx.query(`insert into paper_history (paper_id, event, from_status, to_status, actor_id) values ($1, 'paper.create', null, 'Draft', $2)`, [
    paperId,
    input.setter,
  ]);
  return paperId;
}
