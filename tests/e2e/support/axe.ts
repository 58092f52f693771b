import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, Result, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';

/**
 * axe-core in a real page. The server's CSP is `script-src 'self'`, so axe is not added as a
 * <script>: its source is evaluated through the DevTools protocol (page.evaluate), which CSP
 * does not govern, so the page under test keeps its real CSP. Any screen's test can call
 * `expectAccessible(page, label)`; `a11y-routes.ts` lists the screens the audit visits.
 */

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0/2.1/2.2 A and AA, plus axe's best practices (landmarks, heading order, one h1 …). */
export const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

export interface AxeCheckOptions {
  /** CSS selector of the part to check (default: the whole document). */
  include?: string;
  /** Selectors to leave out (e.g. a third-party widget checked elsewhere). */
  exclude?: string[];
  /** Rule ids switched off, each with the reason in a comment at the call site. */
  disableRules?: string[];
}

async function ensureAxe(page: Page) {
  const present = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!present) await page.evaluate(axeSource);
}

/** Runs axe in the page's main frame and returns its results. */
export async function runAxe(page: Page, options: AxeCheckOptions = {}): Promise<AxeResults> {
  await ensureAxe(page);
  // Colours are read as painted: a toast or dialog still fading in is a blend of its colours and
  // the page's, which no one reads. Finite animations and transitions end first (at most 3 s);
  // endless ones (spinners) are not waited for.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 3_000)),
    ]),
  );
  const runOptions: RunOptions = {
    runOnly: { type: 'tag', values: axeTags },
    resultTypes: ['violations'],
    rules: Object.fromEntries((options.disableRules ?? []).map((id) => [id, { enabled: false }])),
  };
  return page.evaluate(
    async ({ include, exclude, runOptions: opts }) => {
      const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
      const context = { include: include ? [include] : [document.documentElement.tagName.toLowerCase()], exclude: exclude.map((s) => [s]) };
      return axe.run(context as never, opts);
    },
    { include: options.include, exclude: options.exclude ?? [], runOptions },
  );
}

/** One line per failing node: rule, impact, target and axe's summary of what to fix. */
export function describeViolations(violations: Result[]): string {
  return violations
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `- [${violation.id}] (${violation.impact ?? 'n/a'}) ${node.target.join(' ')}: ${violation.help}\n    ${(node.failureSummary ?? '').replace(/\n/g, '\n    ')}`,
      ),
    )
    .join('\n');
}

/** Fails with a readable list when axe finds any violation. */
export async function expectAccessible(page: Page, label: string, options: AxeCheckOptions = {}) {
  const results = await runAxe(page, options);
  if (results.violations.length > 0) {
    throw new Error(`Accessibility violations in ${label}:\n${describeViolations(results.violations)}`);
  }
  return results;
}

/**
 * Walks the page with Tab and records each stop: what it is, whether it is visible and
 * whether the focus is visible on it (an outline or a box-shadow ring, drawn by the element
 * or by the label that wraps a visually hidden control).
 */
export async function tabStops(page: Page, count: number) {
  const stops: Array<{ name: string; tag: string; visible: boolean; focusVisible: boolean }> = [];
  for (let i = 0; i < count; i += 1) {
    await page.keyboard.press('Tab');
    stops.push(
      await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return { name: '(body)', tag: 'body', visible: false, focusVisible: false };
        // Enough of the accessible-name rules for controls: aria-label, aria-labelledby, <label>, text.
        const nameOf = (node: HTMLElement): string => {
          const label = node.getAttribute('aria-label');
          if (label) return label;
          const ids = node.getAttribute('aria-labelledby');
          if (ids)
            return ids
              .split(/\s+/)
              .map((id) => document.getElementById(id)?.textContent ?? '')
              .join(' ');
          const labels = (node as HTMLInputElement).labels;
          if (labels && labels.length > 0) return labels[0].textContent ?? '';
          return node.textContent ?? '';
        };
        const ring = (node: Element | null) => {
          if (!node) return false;
          const style = getComputedStyle(node);
          return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
        };
        // A visually hidden radio or switch shows its focus on what is drawn for it: the
        // label around it or the element right after it.
        const candidates = el.matches('input') ? [el, el.closest('label'), el.nextElementSibling] : [el];
        // Only what has a size counts: a 1 px visually hidden input's own outline shows nothing.
        const drawn = candidates.filter((node): node is Element => {
          if (!node) return false;
          const rect = node.getBoundingClientRect();
          return rect.width > 1 && rect.height > 1;
        });
        return {
          name: nameOf(el).trim().replace(/\s+/g, ' ').slice(0, 60),
          tag: el.tagName.toLowerCase(),
          visible: drawn.length > 0,
          focusVisible: drawn.some(ring),
        };
      }),
    );
    // The browser's own accessible name wins where it has one (it leaves out aria-hidden text,
    // which the rough rules above cannot, e.g. Ark's radios labelled through their item text).
    const snapshot = await page
      .locator(':focus')
      .ariaSnapshot({ timeout: 2_000 })
      .catch(() => '');
    const named = /^- \w+ "((?:[^"\\]|\\.)*)"/.exec(snapshot.trim());
    if (named) stops[stops.length - 1]!.name = named[1]!.replace(/\\"/g, '"').trim().replace(/\s+/g, ' ').slice(0, 60);
  }
  return stops;
}
