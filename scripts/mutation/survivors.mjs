// Lists the mutants a StrykerJS report left alive (Survived, NoCoverage), with the score per
// file: `node scripts/mutation/survivors.mjs [reports/mutation/machines/mutation.json]`.
// The triage of what it lists lives in docs/mutation-survivors.md.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'reports/mutation/machines/mutation.json';
const report = JSON.parse(readFileSync(file, 'utf8'));
const alive = new Set(['Survived', 'NoCoverage']);
const detected = new Set(['Killed', 'Timeout']);
for (const [name, { mutants, source }] of Object.entries(report.files)) {
  const lines = source.split('\n');
  const counted = mutants.filter((m) => detected.has(m.status) || alive.has(m.status));
  const killed = counted.filter((m) => detected.has(m.status)).length;
  const covered = counted.filter((m) => m.status !== 'NoCoverage').length;
  const pct = (n, d) => (d ? ((100 * n) / d).toFixed(1) : '–');
  console.log(`\n${name}: ${pct(killed, counted.length)} % (${killed}/${counted.length}), covered ${pct(killed, covered)} %`);
  for (const m of mutants.filter((x) => alive.has(x.status)).sort((a, b) => a.location.start.line - b.location.start.line)) {
    const { start } = m.location;
    const original = lines[start.line - 1]?.trim().slice(0, 110);
    console.log(
      `  ${m.status === 'NoCoverage' ? 'NOCOV' : 'SURV '} ${start.line}:${start.column} ${m.mutatorName} → ${JSON.stringify(m.replacement ?? '').slice(0, 90)}\n        ${original}`,
    );
  }
}
