import { itemStatistics, paperStatistics, scoreDistribution } from '#machines/results/statistics.ts';
import type { PaperStatisticsAnswer } from './statistics-schemas.ts';
import { rowsFor, statisticsItems, type PaperForScoring, type ScoredDelivery } from './score-deliveries.ts';

/**
 * The item analysis of one paper (issue 20): machines/results/statistics.ts over the scored
 * deliveries. Pure, so the route, the "Item analysis" export and the benchmark share it.
 */
export function analysePaper(paper: PaperForScoring, scored: readonly ScoredDelivery[], bins = 10, now = new Date()): PaperStatisticsAnswer {
  const items = statisticsItems(paper);
  const rows = rowsFor(items, scored);
  const perItem = itemStatistics(rows, items);
  const summary = paperStatistics(rows, items, bins);
  // The distribution runs over one set's marks (every set has the same marks, decision 0140).
  const maxTotal = scored[0]?.maxTotal ?? items.reduce((n, item) => n + item.maxScore, 0);
  const distribution = scoreDistribution(
    scored.map((s) => s.total),
    maxTotal,
    bins,
  );
  const answer = perItem.map((stat, k) => ({
    ...stat,
    number: items[k].number,
    versionId: items[k].versionId,
    itemId: items[k].itemId,
    kind: items[k].kind,
    maxScore: items[k].maxScore,
    key: items[k].key,
  }));
  return {
    paperId: paper.paperId,
    code: paper.code,
    title: paper.title,
    deliveries: scored.length,
    awaitingMarking: scored.reduce((n, s) => n + s.awaitingMarking, 0),
    computedAt: now.toISOString(),
    paper: { ...summary, maxTotal, distribution },
    items: answer,
    flagged: answer.filter((a) => a.flags.includes('negativeDiscrimination') || a.flags.includes('distractorOverKey')).length,
  };
}
