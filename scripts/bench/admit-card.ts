/**
 * One admit card PDF (issue 18, docs/decisions/0232, 0236) without the 50,000-registration
 * allocation or the 1,000-card batch of `allocation`: the card of a candidate in English, Hindi
 * and Gujarati, rendered by the server's printer (HTML, QR code, headless Chromium) — budget
 * ≤ 300 ms each, the median of `BENCH_CARD_RUNS` (default 20) warm renders per medium. The first
 * (cold: Chromium starts) render is printed beside it, and where the time goes: building the page
 * (HTML + QR) and the print itself.
 */
import os from 'node:os';
import { PdfPrinter } from '#server/modules/papers/paper-print.ts';
import { admitCardHtml, qrDataUrl, type AdmitCardPrint } from '#server/modules/seasons/admit-card-print.ts';
import { renderAdmitCard } from '#server/modules/seasons/admit-cards.ts';
import { signAdmitToken } from '#server/modules/seasons/admit-token.ts';

const CARD_BUDGET_MS = 300;
const RUNS = Number(process.env.BENCH_CARD_RUNS ?? 20);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function card(medium: string, registration: number): AdmitCardPrint {
  const rollNumber = `M27C01${String(registration).padStart(5, '0')}`;
  return {
    candidateName: 'Kavya Shah',
    candidateEmail: 'kavya.shah@example.org',
    rollNumber,
    projectName: 'Class 10 Board 2027',
    examName: 'Mathematics',
    seasonName: 'March 2027',
    medium,
    papers: [
      { paperCode: 'MATH-1', paperTitle: 'Algebra and geometry', sitsOn: '2027-03-10', startsAt: '10:00', durationMinutes: 180, mode: 'offline' },
      { paperCode: 'MATH-2', paperTitle: 'Statistics', sitsOn: '2027-03-12', startsAt: '14:00', durationMinutes: 120, mode: 'offline' },
    ],
    center: { name: 'Shree Vidyalaya', address: '12 Ashram Road, Navrangpura', city: 'Ahmedabad', state: 'Gujarat' },
    seatNumber: 42,
    accommodations: { extraTimePercent: 25, scribe: true },
    issuedAt: '2027-02-20T09:00:00.000Z',
    token: signAdmitToken('bench-key-bench-key-bench-key-00', { t: 'root', r: registration, n: rollNumber, v: 1 }),
  };
}

export async function benchAdmitCard() {
  console.log(
    `  load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  const printer = new PdfPrinter();
  let failed = false;
  const figures: Record<string, number> = {};
  try {
    const t0 = performance.now();
    await renderAdmitCard(printer, card('en', 1));
    console.log(`admit card PDF, first (Chromium starts): ${(performance.now() - t0).toFixed(0)} ms`);
    let registration = 2;
    for (const medium of ['en', 'hi', 'gu']) {
      const renders: number[] = [];
      const pages: number[] = [];
      let bytes = 0;
      for (let run = 0; run < RUNS; run += 1) {
        // A different candidate each time (another token, another QR code), as in a batch.
        const one = card(medium, (registration += 1));
        const started = performance.now();
        const built = admitCardHtml(one, await qrDataUrl(one.token), '');
        const pageMs = performance.now() - started;
        void built;
        const t1 = performance.now();
        const pdf = await renderAdmitCard(printer, one);
        renders.push(performance.now() - t1);
        pages.push(pageMs);
        bytes = pdf.length;
      }
      const each = median(renders);
      figures[medium] = each;
      console.log(
        `admit card PDF (${medium}, warm, ${RUNS} runs): median ${each.toFixed(0)} ms, max ${Math.max(...renders).toFixed(0)} ms ` +
          `(building the page, HTML + QR: ${median(pages).toFixed(1)} ms; ${(bytes / 1024).toFixed(0)} KiB)  ${each <= CARD_BUDGET_MS ? `✓ under ${CARD_BUDGET_MS} ms` : `✗ budget ${CARD_BUDGET_MS} ms`}`,
      );
      if (each > CARD_BUDGET_MS) failed = true;
    }
  } finally {
    await printer.close();
  }
  if (failed) process.exitCode = 1;
  return figures;
}
