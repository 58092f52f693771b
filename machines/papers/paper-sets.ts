import type { ItemContent } from '../items/item-schema.ts';
import { drawPool, sortedSections } from './blueprint.ts';
import { cellKey, drawTakes, roundMarks, type Difficulty, type DrawRule, type PaperItem, type PaperSpec, type SectionSpec } from './paper-records.ts';

/**
 * Locking and sets (EXAMS.md §2 "Set", docs/decisions/0140).
 *
 * - `lockSnapshot` freezes what sets are made of: the sections, the exact item versions of the
 *   fixed sections and, for draw rules, the approved versions each cell may draw from, with the
 *   content of every one of them. Sets are a pure function of (snapshot, letter, seed).
 * - `generateSet` shuffles with a seeded generator (sfc32 seeded by cyrb128 of the seed text):
 *   draws per cell, item order within each section, option order within each item that allows
 *   it. Options marked `keepLast` stay at their position. One generator stream, consumed in a
 *   fixed order, so regenerating from the seed gives the same set; `serializeSet` writes it
 *   with a fixed key order, so the same set is the same bytes.
 * - `setProfile` / `checkEquivalence` prove every set has the same count and marks per section,
 *   category and difficulty; `compareSets` says where each item sits in each set.
 */

export interface SnapshotSection {
  id: string;
  order: number;
  title: string;
  marksPerItem: number;
  attemptAny: number | null;
  shuffleItems: boolean;
  shuffleOptions: boolean;
  /** Fixed sections: the pinned versions in the setter's order. */
  fixed: string[] | null;
  /** Draw sections: each rule with the versions its cell may take (sorted by version id). */
  draws: Array<DrawRule & { pool: string[] }> | null;
}

export interface SnapshotItem {
  versionId: string;
  itemId: string;
  categoryId: string | null;
  difficulty: Difficulty | null;
  content: ItemContent;
}

export interface PaperSnapshot {
  sections: SnapshotSection[];
  /** Every version the sets may use, by version id. */
  items: Record<string, SnapshotItem>;
}

export interface SetItem {
  /** Question number in the set, from 1 across the whole paper. */
  number: number;
  versionId: string;
  itemId: string;
  categoryId: string | null;
  difficulty: Difficulty | null;
  marks: number;
  /** Option ids in the order this set shows them (choice and ordering kinds), else null. */
  options: string[] | null;
  /** Matching: the order of each side, else null. */
  left: string[] | null;
  right: string[] | null;
}

export interface PaperSet {
  letter: string;
  seed: string;
  sections: Array<{ sectionId: string; items: SetItem[] }>;
}

function byId(a: string, b: string) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The snapshot a lock stores. Call it only with a blueprint free of blocking warnings: a
 * pinned version missing from `items` is an error here.
 */
export function lockSnapshot(spec: PaperSpec, items: ReadonlyMap<string, PaperItem>, bank: readonly PaperItem[]): PaperSnapshot {
  const sections = sortedSections(spec.sections);
  const snapshotItems: Record<string, SnapshotItem> = {};
  const keep = (item: PaperItem) => {
    snapshotItems[item.versionId] = {
      versionId: item.versionId,
      itemId: item.itemId,
      categoryId: item.categoryId,
      difficulty: item.difficulty,
      content: item.content,
    };
  };
  const fixedItemIds = new Set<string>();
  for (const section of sections) {
    if (section.rule.kind !== 'fixed') continue;
    for (const versionId of section.rule.items) {
      const item = items.get(versionId);
      if (!item) throw new Error(`lockSnapshot: item version ${versionId} is unknown`);
      fixedItemIds.add(item.itemId);
      keep(item);
    }
  }
  const pool = drawPool(bank, fixedItemIds);
  const out: SnapshotSection[] = sections.map((section: SectionSpec) => {
    const base = {
      id: section.id,
      order: section.order,
      title: section.title,
      marksPerItem: section.marksPerItem,
      attemptAny: section.attemptAny,
      shuffleItems: section.shuffleItems,
      shuffleOptions: section.shuffleOptions,
    };
    if (section.rule.kind === 'fixed') return { ...base, fixed: [...section.rule.items], draws: null };
    return {
      ...base,
      fixed: null,
      draws: section.rule.draws.map((draw) => {
        const cellItems = pool.filter((item) => drawTakes(draw, item));
        cellItems.forEach(keep);
        return { categoryId: draw.categoryId, difficulty: draw.difficulty, count: draw.count, pool: cellItems.map((i) => i.versionId).sort(byId) };
      }),
    };
  });
  return { sections: out, items: snapshotItems };
}

/** cyrb128: four 32-bit words from a text, to seed sfc32. */
function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i += 1) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** A seeded generator of integers in [0, n): sfc32, the same sequence on every JS engine. */
export function seededRandom(seed: string): (n: number) => number {
  let [a, b, c, d] = cyrb128(seed);
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // Discard the first outputs, as sfc32's authors advise for weak seeds.
  for (let i = 0; i < 15; i += 1) next();
  return (n: number) => Math.floor(next() * n);
}

/** Fisher–Yates with the seeded generator; returns a new array. */
export function seededShuffle<T>(values: readonly T[], random: (n: number) => number): T[] {
  const out = [...values];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = random(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Shuffles the options not marked `keepLast`; the marked ones keep their position. */
export function shuffleKeepingFixed(options: ReadonlyArray<{ id: string; keepLast: boolean }>, random: (n: number) => number): string[] {
  const movable = options.filter((o) => !o.keepLast).map((o) => o.id);
  const shuffled = seededShuffle(movable, random);
  let next = 0;
  return options.map((o) => (o.keepLast ? o.id : shuffled[next++]));
}

function optionOrders(content: ItemContent, shuffle: boolean, random: (n: number) => number): Pick<SetItem, 'options' | 'left' | 'right'> {
  switch (content.kind) {
    case 'singleChoice':
    case 'multipleChoice':
    case 'ordering':
      return { options: shuffle && content.shuffle ? shuffleKeepingFixed(content.options, random) : content.options.map((o) => o.id), left: null, right: null };
    case 'matching':
      return shuffle && content.shuffle
        ? { options: null, left: shuffleKeepingFixed(content.left, random), right: shuffleKeepingFixed(content.right, random) }
        : { options: null, left: content.left.map((o) => o.id), right: content.right.map((o) => o.id) };
    default:
      return { options: null, left: null, right: null };
  }
}

/**
 * Set `letter` of a locked paper from `seed`. Throws when a cell's pool cannot give what its
 * rules ask (the blueprint's drawShortfall, which a lock refuses first).
 */
export function generateSet(snapshot: PaperSnapshot, letter: string, seed: string): PaperSet {
  const random = seededRandom(`${seed}`);
  const cellQueues = new Map<string, string[]>();
  const sections: PaperSet['sections'] = [];
  let number = 0;
  for (const section of snapshot.sections) {
    let chosen: string[];
    if (section.fixed) {
      chosen = [...section.fixed];
    } else {
      chosen = [];
      for (const draw of section.draws ?? []) {
        const key = cellKey(draw.categoryId, draw.difficulty);
        let queue = cellQueues.get(key);
        if (!queue) {
          queue = seededShuffle(draw.pool, random);
          cellQueues.set(key, queue);
        }
        if (queue.length < draw.count) throw new Error(`Section "${section.title}": only ${queue.length} items left to draw for ${key}, ${draw.count} wanted.`);
        chosen.push(...queue.splice(0, draw.count));
      }
    }
    const ordered = section.shuffleItems ? seededShuffle(chosen, random) : chosen;
    const items: SetItem[] = ordered.map((versionId) => {
      const item = snapshot.items[versionId];
      if (!item) throw new Error(`generateSet: item version ${versionId} is not in the snapshot`);
      number += 1;
      return {
        number,
        versionId,
        itemId: item.itemId,
        categoryId: item.categoryId,
        difficulty: item.difficulty,
        marks: section.marksPerItem,
        ...optionOrders(item.content, section.shuffleOptions, random),
      };
    });
    sections.push({ sectionId: section.id, items });
  }
  return { letter, seed, sections };
}

/** The set as stored and hashed: keys in a fixed order, so one set is always the same bytes. */
export function serializeSet(set: PaperSet): string {
  return JSON.stringify({
    letter: set.letter,
    seed: set.seed,
    sections: set.sections.map((section) => ({
      sectionId: section.sectionId,
      items: section.items.map((i) => ({
        number: i.number,
        versionId: i.versionId,
        itemId: i.itemId,
        categoryId: i.categoryId,
        difficulty: i.difficulty,
        marks: i.marks,
        options: i.options,
        left: i.left,
        right: i.right,
      })),
    })),
  });
}

/** Count and marks per section × category × difficulty, keyed `section|category|difficulty`. */
export function setProfile(set: PaperSet): Record<string, { count: number; marks: number }> {
  const profile: Record<string, { count: number; marks: number }> = {};
  for (const section of set.sections) {
    for (const item of section.items) {
      const key = `${section.sectionId}|${cellKey(item.categoryId, item.difficulty)}`;
      const entry = profile[key] ?? { count: 0, marks: 0 };
      entry.count += 1;
      entry.marks = roundMarks(entry.marks + item.marks);
      profile[key] = entry;
    }
  }
  return Object.fromEntries(Object.entries(profile).sort(([a], [b]) => byId(a, b)));
}

export interface EquivalenceCheck {
  equivalent: boolean;
  /** Cells where a set differs from the first set. */
  differences: Array<{ cell: string; letter: string; count: number; marks: number; expectedCount: number; expectedMarks: number }>;
}

/** Whether every set has the same count and marks per section, category and difficulty. */
export function checkEquivalence(sets: readonly PaperSet[]): EquivalenceCheck {
  const differences: EquivalenceCheck['differences'] = [];
  if (sets.length === 0) return { equivalent: true, differences };
  const reference = setProfile(sets[0]);
  for (const set of sets.slice(1)) {
    const profile = setProfile(set);
    for (const cell of new Set([...Object.keys(reference), ...Object.keys(profile)])) {
      const want = reference[cell] ?? { count: 0, marks: 0 };
      const got = profile[cell] ?? { count: 0, marks: 0 };
      if (want.count !== got.count || want.marks !== got.marks) {
        differences.push({ cell, letter: set.letter, count: got.count, marks: got.marks, expectedCount: want.count, expectedMarks: want.marks });
      }
    }
  }
  return { equivalent: differences.length === 0, differences };
}

export interface ComparisonRow {
  versionId: string;
  itemId: string;
  sectionId: string;
  /** Question number of the item in each set (null: not in that set). */
  positions: Record<string, number | null>;
}

/** Where each item sits in each set, ordered by its place in the first set that has it. */
export function compareSets(sets: readonly PaperSet[]): ComparisonRow[] {
  const rows = new Map<string, ComparisonRow>();
  for (const set of sets) {
    for (const section of set.sections) {
      for (const item of section.items) {
        let row = rows.get(item.versionId);
        if (!row) {
          row = {
            versionId: item.versionId,
            itemId: item.itemId,
            sectionId: section.sectionId,
            positions: Object.fromEntries(sets.map((s) => [s.letter, null])),
          };
          rows.set(item.versionId, row);
        }
        row.positions[set.letter] = item.number;
      }
    }
  }
  return [...rows.values()];
}
