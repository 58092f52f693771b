/**
 * A thin typed wrapper over autocannon (which ships no types): N concurrent clients hammer one
 * request for a while; we keep the latency percentiles, throughput and error count.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as (options: Record<string, unknown>, done: (error: Error | null, result: AutocannonResult) => void) => unknown;

interface AutocannonResult {
  latency: { p50: number; p90: number; p99: number; max: number; average: number };
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
}

export interface LoadResult {
  label: string;
  p50: number;
  p99: number;
  max: number;
  rps: number;
  requests: number;
  failures: number;
}

export async function load(options: {
  label: string;
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  connections?: number;
  durationSeconds?: number;
}): Promise<LoadResult> {
  const result = await new Promise<AutocannonResult>((resolve, reject) =>
    autocannon(
      {
        url: options.url,
        method: options.method ?? 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        connections: options.connections ?? 10,
        duration: options.durationSeconds ?? 15,
      },
      (error, r) => (error ? reject(error) : resolve(r)),
    ),
  );
  return {
    label: options.label,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    rps: Math.round(result.requests.average),
    requests: result.requests.total,
    failures: result.non2xx + result.errors,
  };
}

/** One line per run; a breached budget also makes `npm run bench` exit non-zero. */
export function formatLoad(r: LoadResult, budgetMs?: number): string {
  const met = budgetMs === undefined || (r.p99 < budgetMs && r.failures === 0);
  if (!met) process.exitCode = 1;
  const verdict = budgetMs === undefined ? '' : met ? `  ✓ under ${budgetMs} ms` : `  ✗ budget ${budgetMs} ms`;
  return `${r.label.padEnd(58)} p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  max ${String(r.max).padStart(5)} ms  ${String(r.rps).padStart(5)} req/s  failures ${r.failures}${verdict}`;
}
