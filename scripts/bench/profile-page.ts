/**
 * `npm run bench -- profile` (issue 22): where a page's main thread goes while it loads, under
 * Lighthouse's mobile CPU slowdown (4×). Loads each page of PROFILE_PAGES (default `/`,
 * `/tickets`) signed in as the administrator, records the V8 CPU profile from navigation to
 * PROFILE_SECONDS (6) after it, and prints the self time per script and the functions that
 * took most. Build with `vite build --sourcemap --outDir <dir>` and set CLIENT_DIR=<dir> to read
 * source files and lines instead of minified names. A tool for finding the cost, not a budget:
 * it never fails. PROFILE_OUT_DIR=<dir> keeps each raw `.cpuprofile`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import puppeteer from 'puppeteer-core';
import { SourceMapConsumer, type RawSourceMap } from 'source-map';
import { chromiumArgs, chromePath } from '#tests/e2e/support/browser.ts';
import { removeDataDir, startServer, type RunningServer } from '#tests/e2e/support/server.ts';
import { seededDataDir } from '#tests/e2e/support/seeded-data-dir.ts';
import { savedSession } from '#tests/e2e/support/signed-in-page.ts';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { seedBenchTickets } from './seed-tickets.ts';
import { seedBenchUsers } from './users.ts';

interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Minified positions to source positions, when the client was built with source maps. */
function sourceMapper(clientDir: string | undefined) {
  const consumers = new Map<string, SourceMapConsumer | null>();
  return async (url: string, line: number, column: number): Promise<string | undefined> => {
    const file = url.split('/assets/')[1];
    if (!clientDir || !file) return undefined;
    if (!consumers.has(file)) {
      const mapFile = join(clientDir, 'assets', `${file}.map`);
      consumers.set(file, existsSync(mapFile) ? await new SourceMapConsumer(JSON.parse(readFileSync(mapFile, 'utf8')) as RawSourceMap) : null);
    }
    const position = consumers.get(file)?.originalPositionFor({ line: line + 1, column });
    if (!position?.source) return undefined;
    return `${position.name ?? '?'} ${relative(process.cwd(), resolve(clientDir, 'assets', position.source))}:${position.line}`;
  };
}

async function profilePage(url: string, saved: { key: string; value: string }, seconds: number) {
  const browser = await puppeteer.launch({ executablePath: chromePath, headless: true, args: chromiumArgs });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
    await page.evaluateOnNewDocument(
      (key: string, value: string) => {
        if (!localStorage.getItem(key)) localStorage.setItem(key, value);
      },
      saved.key,
      saved.value,
    );
    const cdp = await page.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(url, { waitUntil: 'load' });
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
    return profile;
  } finally {
    await browser.close();
  }
}

/** The main thread's busy stretches (samples with no idle between them), as Lighthouse's long tasks would see them. */
function busyStretches(profile: CpuProfile, byId: Map<number, ProfileNode>) {
  const stretches: Array<{ startMs: number; ms: number; samples: Array<{ id: number; ms: number }> }> = [];
  let now = 0;
  let current: (typeof stretches)[number] | undefined;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    now += (profile.timeDeltas[i] ?? 0) / 1000;
    const name = byId.get(id)!.callFrame.functionName;
    if (name === '(idle)' || name === '(program)') {
      current = undefined;
      return;
    }
    if (!current) stretches.push((current = { startMs: now, ms: 0, samples: [] }));
    current.ms += ms;
    current.samples.push({ id, ms });
  });
  return stretches;
}

async function report(profile: CpuProfile, clientDir: string | undefined) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) byId.get(child)!.parent = node.id;
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const mapped = sourceMapper(clientDir);
  const byScript = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const { callFrame } = byId.get(id)!;
    if (callFrame.functionName === '(idle)' || callFrame.functionName === '(program)') continue;
    const script = callFrame.url.split('/').pop() || callFrame.functionName || '(native)';
    byScript.set(script, (byScript.get(script) ?? 0) + ms);
    const where =
      (await mapped(callFrame.url, callFrame.lineNumber, callFrame.columnNumber)) ??
      `${callFrame.functionName || '(anonymous)'} ${script}:${callFrame.lineNumber + 1}`;
    byFunction.set(where, (byFunction.get(where) ?? 0) + ms);
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, ms]) => `    ${ms.toFixed(0).padStart(6)} ms  ${name}`)
      .join('\n');
  const total = [...byScript.values()].reduce((a, b) => a + b, 0);
  console.log(`  busy ${total.toFixed(0)} ms (4× slowdown), by script:\n${top(byScript, 12)}\n  by function:\n${top(byFunction, 30)}`);
  // Each long stretch with the source functions of ours (src/, machines/) under which it ran.
  const long = busyStretches(profile, byId).filter((stretch) => stretch.ms > 50);
  console.log(`  long stretches (> 50 ms): ${long.length}, blocking ${long.reduce((sum, s) => sum + s.ms - 50, 0).toFixed(0)} ms`);
  for (const stretch of long) {
    const under = new Map<string, number>();
    for (const sample of stretch.samples) {
      const seen = new Set<string>();
      for (let node = byId.get(sample.id); node; node = node.parent === undefined ? undefined : byId.get(node.parent)) {
        const where = await mapped(node.callFrame.url, node.callFrame.lineNumber, node.callFrame.columnNumber);
        if (where && (process.env.PROFILE_ALL_FRAMES || /^(src|machines)\//.test(where.split(' ')[1] ?? '')) && !seen.has(where)) {
          seen.add(where);
          under.set(where, (under.get(where) ?? 0) + sample.ms);
        }
      }
    }
    console.log(
      `   at ${stretch.startMs.toFixed(0)} ms: ${stretch.ms.toFixed(0)} ms\n${top(under, process.env.PROFILE_ALL_FRAMES ? 14 : 6).replace(/^ {4}/gm, '      ')}`,
    );
  }
}

export async function benchProfile() {
  const pages = (process.env.PROFILE_PAGES ?? '/,/tickets').split(',').map((p) => p.trim());
  const seconds = Number(process.env.PROFILE_SECONDS ?? 6);
  // The same data as `bench -- lighthouse`, so a profile explains that bench's scores.
  const { dataDir } = await seededDataDir(async (db) => {
    await seedBenchTickets(db, 300);
    await seedBenchUsers(db, 300);
  });
  let server: RunningServer | undefined;
  try {
    server = await startServer({ dataDir });
    const { saved } = await savedSession(server, { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD });
    for (const path of pages) {
      console.log(`profile ${path}:`);
      const profile = await profilePage(`${server.url}${path}`, saved, seconds);
      // PROFILE_OUT_DIR keeps the raw profile, which Chromium's DevTools opens (Performance panel).
      if (process.env.PROFILE_OUT_DIR) {
        mkdirSync(process.env.PROFILE_OUT_DIR, { recursive: true });
        writeFileSync(join(process.env.PROFILE_OUT_DIR, `${path.replace(/\W+/g, '_') || '_'}.cpuprofile`), JSON.stringify(profile));
      }
      await report(profile, process.env.CLIENT_DIR);
    }
  } finally {
    await server?.stop();
    await removeDataDir(dataDir);
  }
}
