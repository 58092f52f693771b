import type { ItemContent } from '../items/item-schema.ts';

/**
 * The plain records of a paper that both sides compute with (docs/decisions/0140): the server
 * stores them, the blueprint and set generation are pure functions of them, and the client
 * draws the same blueprint from the same data.
 */

export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const PAPER_LIMITS = {
  sections: 50,
  itemsPerSection: 500,
  drawsPerSection: 50,
  /** Items in one paper (fixed and drawn), so blueprint and sets stay bounded. */
  itemsPerPaper: 2000,
  sets: 26,
} as const;

/** One exact item version a paper may pin: what the blueprint and the sets need of it. */
export interface PaperItem {
  /** The immutable version pinned by the paper. */
  versionId: string;
  /** The item the version belongs to (two versions of one item are the same question). */
  itemId: string;
  categoryId: string | null;
  difficulty: Difficulty | null;
  /** Whether this version is approved (only approved versions are locked into a paper). */
  approved: boolean;
  /** The item's content: its languages are its variants, its options are shuffled per set. */
  content: ItemContent;
}

export type SelectionRule = { kind: 'fixed'; items: string[] } | { kind: 'draw'; draws: DrawRule[] };

/**
 * Draw `count` approved items of one category and one difficulty: a cell of the blueprint.
 * Cells never overlap, so whether a paper's draws can be met is exact arithmetic (0140).
 */
export interface DrawRule {
  categoryId: string;
  difficulty: Difficulty;
  count: number;
}

export interface SectionSpec {
  id: string;
  order: number;
  title: string;
  /** Marks each item of the section is worth. */
  marksPerItem: number;
  /** "Attempt any N of M": null means every item counts. */
  attemptAny: number | null;
  /** Whether set generation shuffles the order of the section's items. */
  shuffleItems: boolean;
  /** Whether set generation shuffles the options of items that allow it. */
  shuffleOptions: boolean;
  rule: SelectionRule;
}

export interface PaperSpec {
  totalMarks: number;
  /** The languages the paper is printed in (the project's content languages). */
  languages: string[];
  sections: SectionSpec[];
}

/** Whether a draw rule takes this item: same category and difficulty. */
export function drawTakes(rule: Pick<DrawRule, 'categoryId' | 'difficulty'>, item: Pick<PaperItem, 'categoryId' | 'difficulty'>): boolean {
  return rule.categoryId === item.categoryId && rule.difficulty === item.difficulty;
}

/** The key of a blueprint cell: category × difficulty (a missing one reads "none"). */
export function cellKey(categoryId: string | null, difficulty: Difficulty | null): string {
  return `${categoryId ?? 'none'}|${difficulty ?? 'none'}`;
}

/** The number of items a section puts in each set. */
export function sectionItemCount(section: Pick<SectionSpec, 'rule'>): number {
  return section.rule.kind === 'fixed' ? section.rule.items.length : section.rule.draws.reduce((sum, d) => sum + d.count, 0);
}

/** The marks a candidate can earn in a section: marks per item × the items that count. */
export function sectionMarks(section: Pick<SectionSpec, 'rule' | 'marksPerItem' | 'attemptAny'>): number {
  const count = sectionItemCount(section);
  const counted = section.attemptAny === null ? count : Math.min(section.attemptAny, count);
  return roundMarks(counted * section.marksPerItem);
}

/** Marks are kept to two decimals (0.25 steps and halves are common). */
export function roundMarks(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The languages an item has content in. */
export function itemLanguages(item: Pick<PaperItem, 'content'>): string[] {
  return Object.keys(item.content.variants).sort();
}

/** Set letters: A … Z, then AA, AB … */
export function setLetter(index: number): string {
  let n = index + 1;
  let letters = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    letters = String.fromCharCode(65 + rem) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}
