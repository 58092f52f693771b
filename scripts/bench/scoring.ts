/**
 * The one scorer at scale (issue 16, EXAMS.md §6): 1,000,000 responses to 1,000 generated items
 * of all nine kinds, scored on one thread, so the rate is per core. Budget: 10,000 deliveries ×
 * 100 items (1,000,000 responses) in ≤ 60 s. Items are scored as the server will: parsed from
 * their stored JSON once, then every response to them.
 */
import fc from 'fast-check';
import os from 'node:os';
import type { ItemContent, ItemResponse } from '#machines/items/item-schema.ts';
import { score } from '#machines/items/score.ts';
import { itemWithResponses } from '#tests/machines/items/support/arbitraries.ts';

const BUDGET_SECONDS = 60;

export async function benchScoring(total = 1_000_000) {
  const generated = fc.sample(itemWithResponses, { numRuns: 1000, seed: 16 });
  const items = generated.map(([item]) => JSON.parse(JSON.stringify(item)) as ItemContent);
  const responses = generated.map(([, rs]) => JSON.parse(JSON.stringify(rs)) as ItemResponse[]);
  const kinds = new Map<string, number>();
  for (const item of items) kinds.set(item.kind, (kinds.get(item.kind) ?? 0) + 1);
  console.log(
    `  ${items.length} items (${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}); load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  // Warm-up: compile every item once and let the JIT settle.
  for (let i = 0; i < items.length; i += 1) for (const r of responses[i]) score(items[i], r);

  let checksum = 0;
  let scored = 0;
  const started = performance.now();
  while (scored < total) {
    for (let i = 0; i < items.length && scored < total; i += 1) {
      const rs = responses[i];
      for (let j = 0; j < rs.length && scored < total; j += 1) {
        checksum += score(items[i], rs[j]).score ?? 0;
        scored += 1;
      }
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const rate = scored / seconds;
  const verdict = seconds <= BUDGET_SECONDS ? `✓ under ${BUDGET_SECONDS} s` : `✗ budget ${BUDGET_SECONDS} s`;
  console.log(
    `scoring: ${scored.toLocaleString('en')} responses in ${seconds.toFixed(2)} s on one core = ${Math.round(rate).toLocaleString('en')} responses/s per core  ${verdict}  (checksum ${checksum.toFixed(2)})`,
  );

  // Cold: every score compiles its item anew (an item object seen for the first time).
  const coldCount = 20_000;
  const coldStart = performance.now();
  for (let n = 0; n < coldCount; n += 1) {
    const i = n % items.length;
    score(JSON.parse(JSON.stringify(items[i])) as ItemContent, responses[i][0]);
  }
  const coldRate = coldCount / ((performance.now() - coldStart) / 1000);
  console.log(`scoring: item parsed and compiled for every response: ${Math.round(coldRate).toLocaleString('en')} responses/s per core`);
  if (seconds > BUDGET_SECONDS) process.exitCode = 1;
  return { scored, seconds, rate, coldRate };
}
