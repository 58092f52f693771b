import { formatNumber } from '#src/lib/format.ts';

/** How the item analysis shows its figures (shared by the tables and the charts). */
const round = (x: number, digits: number) => Number(x.toFixed(digits));

/** A share as a percentage with one decimal ("66.7 %"), or a dash when there is none. */
export function percent(value: number | null, language: string): string {
  if (value === null || !Number.isFinite(value)) return '–';
  return formatNumber(value, { locale: language, style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** A coefficient with two decimals ("−0.71"), or a dash. */
export function decimal(value: number | null, language: string, digits = 2): string {
  if (value === null || !Number.isFinite(value)) return '–';
  return formatNumber(round(value, digits), { locale: language, minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A score band's label: "0–4" (marks, up to one decimal). */
export function bandLabel(from: number, to: number): string {
  const f = (x: number) => String(round(x, 1));
  return `${f(from)}–${f(to)}`;
}
