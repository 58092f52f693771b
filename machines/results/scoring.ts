import type { ItemContent, ItemResponse } from '../items/item-schema.ts';
import { score, type Outcome } from '../items/score.ts';
import type { PaperSet, PaperSnapshot } from '../papers/paper-sets.ts';

/**
 * Scoring a script (issue 20, docs/decisions/0250): every answer of a delivery scored with the
 * one scorer (machines/items/score.ts), then the paper's marking rules on top of it.
 *
 * - The item's own marking (correct / wrong / unanswered, partial credit) is scaled to the
 *   marks the paper gives the item: earned = raw × paper marks ÷ item's correct marks, so an
 *   item marked +4 / −1 in the bank keeps its ratio in a section of 2 marks per item (+2 / −0.5).
 * - "Attempt any N of M": only the best N item scores of the section count; the section's
 *   maximum is the sum of the N highest maxima.
 * - Answers a person has to mark (essays) score nothing until their mark is given; the script
 *   lists them in `awaitingMarking`. A mark given is on the paper's scale (0 … paper marks).
 * - Totals, percentage, grade (the first band, highest first, whose minPercent is reached) and
 *   pass (percentage ≥ passPercent and, when set, every section ≥ sectionMinimumPercent).
 */
export interface ExamRules {
  passPercent: number;
  sectionMinimumPercent?: number | null;
  gradeBands: ReadonlyArray<{ grade: string; minPercent: number }>;
}

export interface ItemScore {
  number: number;
  sectionId: string;
  versionId: string;
  kind: ItemContent['kind'];
  outcome: Outcome;
  /** Marks the paper gives a fully correct answer. */
  maxMarks: number;
  /** Marks earned on the paper's scale; null while awaiting a person's mark. */
  marks: number | null;
  /** Whether this item counts towards the section (false: outside the best N of an "any N of M" section). */
  counted: boolean;
  needsHumanMarking: boolean;
}

export interface SectionTotal {
  sectionId: string;
  total: number;
  maxTotal: number;
  attemptAny: number | null;
}

export interface ScriptScore {
  items: ItemScore[];
  sections: SectionTotal[];
  total: number;
  maxTotal: number;
  percent: number;
  grade: string | null;
  passed: boolean;
  /** Item numbers still waiting for a person's mark. */
  awaitingMarking: number[];
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** The grade of a percentage: the first band (highest first) whose minimum it reaches. */
export function gradeOf(bands: ExamRules['gradeBands'], percent: number): string | null {
  const sorted = [...bands].sort((a, b) => b.minPercent - a.minPercent);
  return sorted.find((b) => percent >= b.minPercent)?.grade ?? null;
}

/**
 * Scores one script. `answers` holds the stored response per question number (absent or null:
 * unanswered); `humanMarks` the marks people gave per question number; `keys` replaces the
 * content of item versions whose answer key was corrected after the lock.
 */
export function scoreScript(
  snapshot: PaperSnapshot,
  set: PaperSet,
  answers: ReadonlyMap<number, ItemResponse | null>,
  rules: ExamRules,
  humanMarks: ReadonlyMap<number, number> = new Map(),
  keys: Readonly<Record<string, ItemContent>> = {},
  /** A paper sat on paper: every question's marks are entered by a person (docs/decisions/0249). */
  everyItemMarked = false,
): ScriptScore {
  const attemptAnyOf = new Map(snapshot.sections.map((s) => [s.id, s.attemptAny]));
  const items: ItemScore[] = [];
  const sections: SectionTotal[] = [];
  const awaitingMarking: number[] = [];
  let total = 0;
  let maxTotal = 0;
  let sectionFailed = false;
  for (const section of set.sections) {
    const scored: ItemScore[] = [];
    for (const item of section.items) {
      const content = keys[item.versionId] ?? snapshot.items[item.versionId].content;
      let result;
      try {
        result = score(content, answers.get(item.number) ?? undefined);
      } catch {
        // A stored answer of the wrong shape (the save route refuses those) scores as unanswered.
        result = score(content, undefined);
      }
      const scale = result.maxScore > 0 ? item.marks / result.maxScore : 0;
      let marks: number | null = result.score === null ? null : round(result.score * scale);
      const byPerson = result.needsHumanMarking || everyItemMarked;
      if (byPerson) {
        const given = humanMarks.get(item.number);
        marks = given === undefined ? null : round(Math.min(item.marks, Math.max(0, given)));
        if (marks === null) awaitingMarking.push(item.number);
      }
      scored.push({
        number: item.number,
        sectionId: section.sectionId,
        versionId: item.versionId,
        kind: content.kind,
        // A question a person marks has the outcome of that mark, and waits until it is given
        // (on a paper sat on paper, not what the automatic marking made of a stored answer).
        outcome: byPerson ? (marks === null ? 'awaitingMarking' : marks >= item.marks ? 'correct' : marks > 0 ? 'partial' : 'wrong') : result.outcome,
        maxMarks: item.marks,
        marks,
        counted: true,
        needsHumanMarking: byPerson,
      });
    }
    const n = attemptAnyOf.get(section.sectionId) ?? null;
    let sectionMax = scored.reduce((sum, s) => sum + s.maxMarks, 0);
    if (n !== null && n < scored.length) {
      // Best N: the highest marks count (awaiting ones as 0 for now); ties keep question order.
      const ranked = [...scored].sort((a, b) => (b.marks ?? 0) - (a.marks ?? 0) || a.number - b.number);
      const counted = new Set(ranked.slice(0, n).map((s) => s.number));
      for (const s of scored) s.counted = counted.has(s.number);
      sectionMax = [...scored]
        .map((s) => s.maxMarks)
        .sort((a, b) => b - a)
        .slice(0, n)
        .reduce((sum, m) => sum + m, 0);
    }
    const sectionTotal = round(scored.reduce((sum, s) => sum + (s.counted ? (s.marks ?? 0) : 0), 0));
    sections.push({ sectionId: section.sectionId, total: sectionTotal, maxTotal: round(sectionMax), attemptAny: n });
    if (rules.sectionMinimumPercent != null && sectionMax > 0 && (sectionTotal / sectionMax) * 100 < rules.sectionMinimumPercent) sectionFailed = true;
    total += sectionTotal;
    maxTotal += sectionMax;
    items.push(...scored);
  }
  total = round(total);
  maxTotal = round(maxTotal);
  const percent = maxTotal > 0 ? Math.round((total / maxTotal) * 10_000) / 100 : 0;
  return {
    items,
    sections,
    total,
    maxTotal,
    percent,
    grade: gradeOf(rules.gradeBands, percent),
    passed: percent >= rules.passPercent && !sectionFailed,
    awaitingMarking,
  };
}
