/**
 * Classical test theory statistics of one sitting (EXAMS.md §5, issue 20): what a
 * psychometrician checks before results are published. Pure functions over a response matrix,
 * shared by the server (which computes them for an exam) and the tests (which check each
 * against a hand-computed example).
 *
 * Conventions, chosen once so that every figure agrees with the others:
 * - variances are population variances (divide by N), as in the KR-20 and alpha formulas;
 *   the reported SD is the population SD too;
 * - facility is the mean fraction of the item's marks earned (for a 0/1 item: the share who
 *   got it right, the p-value);
 * - discrimination is the Pearson correlation of the item's score with the total score (the
 *   point-biserial for 0/1 items), and with the rest score (total minus the item), which does
 *   not count the item's own contribution;
 * - the upper/lower index compares the top and bottom 27 % of candidates by total score
 *   (at least one candidate per group; ties at the cut are broken by the order given, so the
 *   groups never overlap).
 */

/** One candidate's answer to one item. */
export interface ItemAnswer {
  /** Marks earned (may be negative with negative marking); null when not yet marked. */
  score: number | null;
  /** The options chosen (choice items), for distractor counts; empty when not a choice item. */
  chosen?: readonly string[];
  /** True when the candidate gave no response. */
  omitted: boolean;
}

/** One candidate's row: an answer per item id. */
export interface CandidateRow {
  id: string;
  answers: Readonly<Record<string, ItemAnswer>>;
}

export interface ItemMeta {
  id: string;
  maxScore: number;
  /** The options of a choice item and which of them are in the key. */
  options?: readonly { id: string; correct: boolean }[];
}

export interface DistractorCount {
  optionId: string;
  correct: boolean;
  count: number;
  upper: number;
  lower: number;
}

export type ItemFlag = 'negativeDiscrimination' | 'distractorOverKey' | 'noVariance';

export interface ItemStatistics {
  itemId: string;
  /** Candidates with a marked answer (omitted counts as answered with its score, usually 0). */
  n: number;
  facility: number | null;
  pointBiserial: number | null;
  restCorrelation: number | null;
  upperLowerIndex: number | null;
  omittedRate: number | null;
  distractors: DistractorCount[];
  flags: ItemFlag[];
}

export interface ScoreBin {
  from: number;
  to: number;
  count: number;
}

export interface PaperStatistics {
  n: number;
  items: number;
  mean: number | null;
  sd: number | null;
  min: number | null;
  max: number | null;
  median: number | null;
  /** KR-20 when every item is 0/1, else Cronbach's alpha; null when it cannot be computed. */
  reliability: number | null;
  reliabilityKind: 'KR-20' | 'alpha';
  sem: number | null;
  distribution: ScoreBin[];
}

export const UPPER_LOWER_SHARE = 0.27;

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const mean = (xs: readonly number[]) => (xs.length === 0 ? null : sum(xs) / xs.length);

/** Population variance (÷ N). */
export function variance(xs: readonly number[]): number | null {
  const m = mean(xs);
  if (m === null) return null;
  return sum(xs.map((x) => (x - m) ** 2)) / xs.length;
}

/** Pearson correlation; null when either side has no variance or fewer than two pairs. */
export function correlation(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length || xs.length < 2) return null;
  const mx = mean(xs)!;
  const my = mean(ys)!;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    const dx = xs[i] - mx;
    const dy = ys[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  return sxy / Math.sqrt(sxx * syy);
}

const scoreOf = (row: CandidateRow, itemId: string) => row.answers[itemId]?.score ?? 0;

/** Total score of each row over the given items (unanswered and unmarked count 0). */
export function totals(rows: readonly CandidateRow[], items: readonly ItemMeta[]): number[] {
  return rows.map((row) => sum(items.map((item) => scoreOf(row, item.id))));
}

/** Indices of the top and bottom share of rows by total; never overlapping. */
export function upperLowerGroups(total: readonly number[], share = UPPER_LOWER_SHARE): { upper: number[]; lower: number[] } {
  if (total.length < 2) return { upper: [], lower: [] };
  const size = Math.min(Math.max(1, Math.round(total.length * share)), Math.floor(total.length / 2));
  const order = total.map((t, i) => ({ t, i })).sort((a, b) => b.t - a.t || a.i - b.i);
  return { upper: order.slice(0, size).map((x) => x.i), lower: order.slice(-size).map((x) => x.i) };
}

export function itemStatistics(rows: readonly CandidateRow[], items: readonly ItemMeta[]): ItemStatistics[] {
  const total = totals(rows, items);
  const { upper, lower } = upperLowerGroups(total);
  const upperSet = new Set(upper);
  const lowerSet = new Set(lower);
  return items.map((item) => {
    const marked = rows.map((row, i) => ({ row, i })).filter(({ row }) => row.answers[item.id]?.score !== null);
    const scores = marked.map(({ row }) => scoreOf(row, item.id));
    const theirTotals = marked.map(({ i }) => total[i]);
    const facility = item.maxScore > 0 && scores.length > 0 ? mean(scores)! / item.maxScore : null;
    const pointBiserial = correlation(scores, theirTotals);
    const restCorrelation = correlation(
      scores,
      theirTotals.map((t, k) => t - scores[k]),
    );
    const share = (group: readonly number[]) =>
      group.length === 0 || item.maxScore <= 0 ? null : sum(group.map((i) => scoreOf(rows[i], item.id))) / (group.length * item.maxScore);
    const pu = share(upper);
    const pl = share(lower);
    const upperLowerIndex = pu === null || pl === null ? null : pu - pl;
    const omittedRate = rows.length === 0 ? null : rows.filter((row) => row.answers[item.id]?.omitted ?? true).length / rows.length;
    const distractors: DistractorCount[] = (item.options ?? []).map((option) => {
      const choosers = rows.map((row, i) => ({ row, i })).filter(({ row }) => row.answers[item.id]?.chosen?.includes(option.id));
      return {
        optionId: option.id,
        correct: option.correct,
        count: choosers.length,
        upper: choosers.filter(({ i }) => upperSet.has(i)).length,
        lower: choosers.filter(({ i }) => lowerSet.has(i)).length,
      };
    });
    const flags: ItemFlag[] = [];
    if (pointBiserial !== null && pointBiserial < 0) flags.push('negativeDiscrimination');
    const keyCount = Math.max(0, ...distractors.filter((d) => d.correct).map((d) => d.count));
    if (distractors.some((d) => !d.correct && d.count > keyCount)) flags.push('distractorOverKey');
    if (scores.length > 1 && variance(scores) === 0) flags.push('noVariance');
    return { itemId: item.id, n: scores.length, facility, pointBiserial, restCorrelation, upperLowerIndex, omittedRate, distractors, flags };
  });
}

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Bins of equal width over [0, maxTotal] (the last bin includes its upper end); scores below 0 go in the first. */
export function scoreDistribution(total: readonly number[], maxTotal: number, bins = 10): ScoreBin[] {
  if (maxTotal <= 0 || bins < 1) return [];
  const width = maxTotal / bins;
  const result: ScoreBin[] = Array.from({ length: bins }, (_, k) => ({ from: k * width, to: (k + 1) * width, count: 0 }));
  for (const t of total) {
    const k = Math.min(bins - 1, Math.max(0, Math.floor(t / width)));
    result[k].count += 1;
  }
  return result;
}

export function paperStatistics(rows: readonly CandidateRow[], items: readonly ItemMeta[], bins = 10): PaperStatistics {
  const total = totals(rows, items);
  const totalVariance = variance(total);
  const dichotomous = items.every((item) => item.maxScore === 1 && rows.every((row) => [0, 1].includes(scoreOf(row, item.id))));
  const k = items.length;
  let reliability: number | null = null;
  if (k > 1 && totalVariance !== null && totalVariance > 0) {
    const itemVariances = items.map((item) => variance(rows.map((row) => scoreOf(row, item.id))) ?? 0);
    reliability = (k / (k - 1)) * (1 - sum(itemVariances) / totalVariance);
  }
  const sd = totalVariance === null ? null : Math.sqrt(totalVariance);
  return {
    n: rows.length,
    items: k,
    mean: mean(total),
    sd,
    min: total.length ? Math.min(...total) : null,
    max: total.length ? Math.max(...total) : null,
    median: median(total),
    reliability,
    reliabilityKind: dichotomous ? 'KR-20' : 'alpha',
    // SEM = SD·√(1 − r); a negative reliability (possible with alpha) gives no SEM.
    sem: sd === null || reliability === null || reliability < 0 ? null : sd * Math.sqrt(1 - reliability),
    distribution: scoreDistribution(total, sum(items.map((item) => item.maxScore)), bins),
  };
}
