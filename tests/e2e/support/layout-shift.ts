import type { Page } from 'playwright-core';

/**
 * Records every layout shift from the first paint on, as Lighthouse counts them (shifts right
 * after an input left out). Call before the page loads; read the total with `layoutShiftTotal`.
 */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: number[] = ((window as unknown as { shifts: number[] }).shifts = []);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!entry.hadRecentInput) shifts.push(entry.value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The sum of the layout shifts recorded so far (cumulative layout shift). */
export async function layoutShiftTotal(page: Page): Promise<number> {
  const shifts = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts);
  return shifts.reduce((sum, value) => sum + value, 0);
}
