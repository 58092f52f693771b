import {
  cellKey,
  drawTakes,
  itemLanguages,
  roundMarks,
  sectionItemCount,
  sectionMarks,
  type Difficulty,
  type PaperItem,
  type PaperSpec,
  type SectionSpec,
} from './paper-records.ts';

/**
 * The blueprint of a paper (EXAMS.md §2, issue 17): marks and counts by section × category ×
 * difficulty, language coverage and the warnings a setter must see. Pure: the server answers
 * it and refuses a lock with blocking warnings; the client can draw it from the same data.
 *
 * Cell marks are the marks offered (count × marks per item); a section's marks are what a
 * candidate can earn ("attempt any N of M" counts N), and the paper's computed total is the sum
 * of its sections' marks.
 */

export interface BlueprintCell {
  sectionId: string;
  categoryId: string | null;
  difficulty: Difficulty | null;
  count: number;
  marks: number;
}

export type BlueprintWarning =
  | { code: 'totalMismatch'; blocking: true; declared: number; computed: number; message: string }
  | { code: 'emptySection'; blocking: true; sectionId: string; message: string }
  | { code: 'attemptAnyTooLarge'; blocking: true; sectionId: string; attemptAny: number; count: number; message: string }
  | { code: 'unknownItem'; blocking: true; sectionId: string; versionId: string; message: string }
  | { code: 'notApproved'; blocking: true; sectionId: string; versionId: string; message: string }
  | { code: 'duplicateItem'; blocking: true; itemId: string; sectionIds: string[]; message: string }
  | {
      code: 'drawShortfall';
      blocking: true;
      categoryId: string;
      difficulty: Difficulty;
      wanted: number;
      approved: number;
      sectionIds: string[];
      message: string;
    }
  | { code: 'languageMissing'; blocking: false; language: string; count: number; message: string };

export interface LanguageCoverage {
  language: string;
  /** Fixed items (version ids) without content in this language. */
  missing: string[];
  /** Items of the draw pools without content in this language (they may be drawn). */
  drawPoolMissing: number;
}

export interface Blueprint {
  declaredMarks: number;
  computedMarks: number;
  itemCount: number;
  sections: Array<{ sectionId: string; title: string; count: number; marks: number; cells: BlueprintCell[] }>;
  byCategory: Array<{ categoryId: string | null; count: number; marks: number }>;
  byDifficulty: Array<{ difficulty: Difficulty | null; count: number; marks: number }>;
  languages: LanguageCoverage[];
  warnings: BlueprintWarning[];
  /** How many warnings stop the paper from being locked. */
  blocking: number;
}

/** The approved items of the bank that draw rules may take, one version per item. */
export function drawPool(bank: readonly PaperItem[], fixedItemIds: ReadonlySet<string>): PaperItem[] {
  const seen = new Set<string>();
  const pool: PaperItem[] = [];
  for (const item of bank) {
    if (!item.approved || fixedItemIds.has(item.itemId) || seen.has(item.itemId)) continue;
    seen.add(item.itemId);
    pool.push(item);
  }
  return pool;
}

export function sortedSections<S extends Pick<SectionSpec, 'order' | 'id'>>(sections: readonly S[]): S[] {
  return [...sections].sort((a, b) => a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function addTo<K>(map: Map<K, { count: number; marks: number }>, key: K, count: number, marks: number) {
  const entry = map.get(key) ?? { count: 0, marks: 0 };
  entry.count += count;
  entry.marks = roundMarks(entry.marks + marks);
  map.set(key, entry);
}

/**
 * The blueprint of `spec`. `items` holds the versions the fixed sections pin (a pinned version
 * missing from it is reported as unknown); `bank` the items draw rules may take (the project's
 * items, one version each; only approved ones count).
 */
export function computeBlueprint(spec: PaperSpec, items: ReadonlyMap<string, PaperItem>, bank: readonly PaperItem[]): Blueprint {
  const warnings: BlueprintWarning[] = [];
  const sections = sortedSections(spec.sections);
  const fixedUse = new Map<string, Set<string>>(); // itemId → sections using it
  const fixedItemIds = new Set<string>();
  for (const section of sections) {
    if (section.rule.kind !== 'fixed') continue;
    for (const versionId of section.rule.items) {
      const item = items.get(versionId);
      const itemId = item?.itemId ?? `version:${versionId}`;
      fixedItemIds.add(itemId);
      const users = fixedUse.get(itemId) ?? new Set<string>();
      // A version listed twice in one section counts as a duplicate too.
      if (users.has(section.id)) users.add(`${section.id}#twice`);
      users.add(section.id);
      fixedUse.set(itemId, users);
    }
  }
  const pool = drawPool(bank, fixedItemIds);

  const byCategory = new Map<string | null, { count: number; marks: number }>();
  const byDifficulty = new Map<Difficulty | null, { count: number; marks: number }>();
  const drawNeeds = new Map<string, { categoryId: string; difficulty: Difficulty; wanted: number; sectionIds: string[] }>();
  const blueprintSections: Blueprint['sections'] = [];
  const missingByLanguage = new Map<string, string[]>(spec.languages.map((language) => [language, []]));
  let itemCount = 0;

  for (const section of sections) {
    const count = sectionItemCount(section);
    itemCount += count;
    const cells = new Map<string, BlueprintCell>();
    const cell = (categoryId: string | null, difficulty: Difficulty | null) => {
      const key = cellKey(categoryId, difficulty);
      const existing = cells.get(key);
      if (existing) return existing;
      const created: BlueprintCell = { sectionId: section.id, categoryId, difficulty, count: 0, marks: 0 };
      cells.set(key, created);
      return created;
    };
    if (count === 0) warnings.push({ code: 'emptySection', blocking: true, sectionId: section.id, message: `Section "${section.title}" has no items.` });
    if (section.attemptAny !== null && section.attemptAny > count) {
      warnings.push({
        code: 'attemptAnyTooLarge',
        blocking: true,
        sectionId: section.id,
        attemptAny: section.attemptAny,
        count,
        message: `Section "${section.title}" asks to attempt any ${section.attemptAny} of only ${count} items.`,
      });
    }
    if (section.rule.kind === 'fixed') {
      for (const versionId of section.rule.items) {
        const item = items.get(versionId);
        if (!item) {
          warnings.push({
            code: 'unknownItem',
            blocking: true,
            sectionId: section.id,
            versionId,
            message: `Section "${section.title}" uses item version ${versionId}, which does not exist in this project.`,
          });
          continue;
        }
        if (!item.approved) {
          warnings.push({
            code: 'notApproved',
            blocking: true,
            sectionId: section.id,
            versionId,
            message: `Section "${section.title}" uses item version ${versionId}, which is not approved.`,
          });
        }
        const target = cell(item.categoryId, item.difficulty);
        target.count += 1;
        target.marks = roundMarks(target.marks + section.marksPerItem);
        const languages = itemLanguages(item);
        for (const [language, missing] of missingByLanguage) if (!languages.includes(language)) missing.push(versionId);
      }
    } else {
      for (const draw of section.rule.draws) {
        const target = cell(draw.categoryId, draw.difficulty);
        target.count += draw.count;
        target.marks = roundMarks(target.marks + draw.count * section.marksPerItem);
        const key = cellKey(draw.categoryId, draw.difficulty);
        const need = drawNeeds.get(key) ?? { categoryId: draw.categoryId, difficulty: draw.difficulty, wanted: 0, sectionIds: [] };
        need.wanted += draw.count;
        if (!need.sectionIds.includes(section.id)) need.sectionIds.push(section.id);
        drawNeeds.set(key, need);
      }
    }
    const sectionCells = [...cells.values()];
    for (const c of sectionCells) {
      addTo(byCategory, c.categoryId, c.count, c.marks);
      addTo(byDifficulty, c.difficulty, c.count, c.marks);
    }
    blueprintSections.push({ sectionId: section.id, title: section.title, count, marks: sectionMarks(section), cells: sectionCells });
  }

  for (const [itemId, users] of fixedUse) {
    if (users.size > 1) {
      const sectionIds = [...users].filter((id) => !id.endsWith('#twice'));
      warnings.push({
        code: 'duplicateItem',
        blocking: true,
        itemId,
        sectionIds,
        message: `Item ${itemId.replace(/^version:/, '')} is used more than once in this paper.`,
      });
    }
  }

  const poolItemsUsed = new Set<string>();
  for (const need of drawNeeds.values()) {
    const approved = pool.filter((item) => drawTakes(need, item));
    for (const item of approved) poolItemsUsed.add(item.versionId);
    if (approved.length < need.wanted) {
      warnings.push({
        code: 'drawShortfall',
        blocking: true,
        ...need,
        approved: approved.length,
        message: `Draw rules ask for ${need.wanted} ${need.difficulty} items of category ${need.categoryId}, but only ${approved.length} approved items are available.`,
      });
    }
  }
  const drawPoolMissing = new Map(
    spec.languages.map((language) => [language, pool.filter((item) => poolItemsUsed.has(item.versionId) && !itemLanguages(item).includes(language)).length]),
  );

  const computedMarks = roundMarks(blueprintSections.reduce((sum, s) => sum + s.marks, 0));
  if (computedMarks !== roundMarks(spec.totalMarks)) {
    warnings.push({
      code: 'totalMismatch',
      blocking: true,
      declared: spec.totalMarks,
      computed: computedMarks,
      message: `The sections add up to ${computedMarks} marks, but the paper declares ${spec.totalMarks}.`,
    });
  }
  const languages: LanguageCoverage[] = spec.languages.map((language) => ({
    language,
    missing: missingByLanguage.get(language) ?? [],
    drawPoolMissing: drawPoolMissing.get(language) ?? 0,
  }));
  for (const coverage of languages) {
    const count = coverage.missing.length + coverage.drawPoolMissing;
    if (count > 0)
      warnings.push({
        code: 'languageMissing',
        blocking: false,
        language: coverage.language,
        count,
        message: `${count} items have no ${coverage.language} version.`,
      });
  }

  return {
    declaredMarks: spec.totalMarks,
    computedMarks,
    itemCount,
    sections: blueprintSections,
    byCategory: [...byCategory].map(([categoryId, v]) => ({ categoryId, ...v })),
    byDifficulty: [...byDifficulty].map(([difficulty, v]) => ({ difficulty, ...v })),
    languages,
    warnings,
    blocking: warnings.filter((w) => w.blocking).length,
  };
}
