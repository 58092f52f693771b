/**
 * Manual marking rules (issue 20, EXAMS.md §5, docs/decisions/0251), plain functions both the
 * server and the screens use:
 *
 * - Which answers are double-marked: a stable share of them, chosen from the script's opaque id
 *   and the question number (FNV-1a), so the choice does not depend on arrival order and
 *   nobody can steer it by marking order.
 * - How the marks given settle: one mark stands alone; a double-marked answer takes the mean of
 *   its two marks when they differ by at most the threshold, else it waits for a third marker
 *   (a Moderator), whose mark is final.
 * - Moderation of one evaluator's marks: a shift (+/− marks) or a scale (× factor), kept within
 *   0 … the item's maximum.
 */
export interface ResultSettings {
  /** Whether candidates see their answer sheet (their answers, the key and the marks). */
  answerSheet: boolean;
  /** Days after publication a candidate may ask for re-evaluation; 0 = not offered. */
  reevaluationDays: number;
  /** Share of human-marked answers marked twice, blind (0–100). */
  doubleMarkPercent: number;
  /** Two marks further apart than this go to a third marker. */
  thirdMarkThreshold: number;
}

export const defaultResultSettings: ResultSettings = { answerSheet: true, reevaluationDays: 7, doubleMarkPercent: 10, thirdMarkThreshold: 2 };

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Whether this answer is one of the share marked twice. */
export function isDoubleMarked(scriptId: string, itemNumber: number, percent: number): boolean {
  if (percent <= 0) return false;
  if (percent >= 100) return true;
  return fnv1a(`${scriptId}#${itemNumber}`) % 10_000 < percent * 100;
}

export type MarkingState =
  { kind: 'awaiting'; round: 1 | 2 } | { kind: 'thirdMarker'; difference: number } | { kind: 'final'; marks: number; by: 'single' | 'agreed' | 'third' };

/**
 * Where an answer stands given the marks so far, by round (1, 2, 3). `double` says whether it
 * is one of the double-marked share.
 */
export function settleMarks(marks: Partial<Record<1 | 2 | 3, number>>, double: boolean, threshold: number): MarkingState {
  const first = marks[1];
  if (first === undefined) return { kind: 'awaiting', round: 1 };
  if (!double) return { kind: 'final', marks: first, by: 'single' };
  const second = marks[2];
  if (second === undefined) return { kind: 'awaiting', round: 2 };
  const difference = Math.abs(first - second);
  // Compare in hundredths so 0.1 + 0.2 style noise never sends a script to a third marker.
  if (Math.round(difference * 100) <= Math.round(threshold * 100))
    return { kind: 'final', marks: Math.round(((first + second) / 2) * 1e6) / 1e6, by: 'agreed' };
  const third = marks[3];
  if (third === undefined) return { kind: 'thirdMarker', difference };
  return { kind: 'final', marks: third, by: 'third' };
}

export type Adjustment = { kind: 'shift' | 'scale'; value: number };

/** One mark after moderation, within 0 … max, to hundredths. */
export function adjustMark(marks: number, max: number, adjustment: Adjustment): number {
  const moved = adjustment.kind === 'shift' ? marks + adjustment.value : marks * adjustment.value;
  return Math.round(Math.min(max, Math.max(0, moved)) * 100) / 100;
}

export interface Distribution {
  count: number;
  mean: number;
  sd: number;
}

/** Count, mean and (population) standard deviation of a marker's marks as shares of the maximum (0–1). */
export function distributionOf(shares: readonly number[]): Distribution {
  const count = shares.length;
  if (!count) return { count: 0, mean: 0, sd: 0 };
  const mean = shares.reduce((a, b) => a + b, 0) / count;
  const sd = Math.sqrt(shares.reduce((a, b) => a + (b - mean) ** 2, 0) / count);
  return { count, mean: Math.round(mean * 10_000) / 10_000, sd: Math.round(sd * 10_000) / 10_000 };
}
