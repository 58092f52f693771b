import type { BrowserContext, Page } from 'playwright-core';
import type { LayoutConfig } from '#src/app/stores/layout-config-store.ts';

/** The key the app keeps its layout config under (`<productKey>-layout-config`). */
export const layoutStorageKey = 'exam-portal-layout-config';

export const defaultLayout: LayoutConfig = {
  container: false,
  mode: 'light',
  presetColor: 'default',
  themeDirection: 'ltr',
  miniDrawer: false,
  fontFamily: `'Public Sans', sans-serif`,
};

/** Every page of the context starts with this layout config saved (as a returning user). */
export async function seedLayout(context: BrowserContext, layout: Partial<LayoutConfig>) {
  await context.addInitScript(
    ([key, value]) => {
      window.localStorage.setItem(key, value);
    },
    [layoutStorageKey, JSON.stringify({ ...defaultLayout, ...layout })] as const,
  );
}

/** What <html> says about the theme right now. */
export function htmlTheme(page: Page) {
  return page.evaluate(() => {
    const html = document.documentElement;
    const style = getComputedStyle(html);
    return {
      dir: html.dir,
      lang: html.lang,
      mode: html.dataset.mode,
      preset: html.dataset.preset,
      primaryMain: style.getPropertyValue('--colors-primary-main').trim(),
      canvas: getComputedStyle(document.body).backgroundColor,
      fontFamily: getComputedStyle(document.body).fontFamily,
    };
  });
}

/** Opens the theme settings panel from the header and waits for it. */
export async function openSettings(page: Page) {
  await page.getByTestId('settings-trigger').click();
  const panel = page.getByTestId('settings-panel');
  await panel.waitFor();
  return panel;
}

/** Closes the settings panel with Escape and waits until it is gone. */
export async function closeSettings(page: Page) {
  await page.keyboard.press('Escape');
  await page.getByTestId('settings-panel').waitFor({ state: 'detached' });
}

/** '#0061be' → 'rgb(0, 97, 190)', as getComputedStyle reports colours. */
export function hexToRgb(hex: string) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}
