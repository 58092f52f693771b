import { describe, expect, it } from 'vitest';
import { preloadStylesheets } from '../../../scripts/vite/stylesheet-after-splash.ts';
import { attachAppStylesheets } from '#src/app/app-stylesheets.ts';

/** A document as the build writes it: the app's style sheet preloaded, marked, in the head. */
function builtDocument(head: string) {
  return new DOMParser().parseFromString(`<!doctype html><html><head>${head}</head><body><div id="root"></div></body></html>`, 'text/html');
}

describe("the app's style sheet, preloaded so the splash paints first (docs/decisions/0295)", () => {
  it('should turn each style sheet link of the built page into a marked preload of the same file, and leave the rest', () => {
    const html = [
      '<script type="module" crossorigin src="/assets/boot-1.js"></script>',
      '<link rel="stylesheet" crossorigin href="/assets/boot-1.css">',
      '<link rel="preload" as="font" type="font/woff2" href="/assets/f.woff2" crossorigin="">',
      '<link rel="stylesheet" href="/assets/extra.css">',
    ].join('\n');
    expect(preloadStylesheets(html).split('\n')).toEqual([
      '<script type="module" crossorigin src="/assets/boot-1.js"></script>',
      '<link rel="preload" as="style" crossorigin href="/assets/boot-1.css" data-app-stylesheet>',
      '<link rel="preload" as="font" type="font/woff2" href="/assets/f.woff2" crossorigin="">',
      '<link rel="preload" as="style" href="/assets/extra.css" data-app-stylesheet>',
    ]);
  });

  it('should attach each marked preload as a style sheet right after it, and settle once every sheet has loaded', async () => {
    const doc = builtDocument(
      '<link rel="preload" as="style" crossorigin href="/assets/a.css" data-app-stylesheet><link rel="preload" as="style" href="/assets/b.css" data-app-stylesheet><link rel="preload" as="style" href="/assets/route.css">',
    );
    let settled = false;
    const attached = attachAppStylesheets(doc).then(() => (settled = true));
    const sheets = [...doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')];
    // The route's own preload (no mark) is left to the code that loads the route.
    expect(sheets.map((sheet) => new URL(sheet.href).pathname)).toEqual(['/assets/a.css', '/assets/b.css']);
    expect(sheets.map((sheet) => sheet.getAttribute('crossorigin'))).toEqual(['', null]);
    expect(sheets.map((sheet) => (sheet.previousElementSibling as HTMLLinkElement).href)).toEqual(sheets.map((sheet) => sheet.href));
    sheets[0].dispatchEvent(new Event('load'));
    await Promise.resolve();
    expect(settled).toBe(false);
    // A sheet that fails does not hold the app back.
    sheets[1].dispatchEvent(new Event('error'));
    await attached;
    expect(settled).toBe(true);
  });

  it('should settle at once where nothing is preloaded (the development server injects the styles itself)', async () => {
    const doc = builtDocument('<link rel="preload" as="style" href="/assets/route.css">');
    await expect(attachAppStylesheets(doc)).resolves.toBeUndefined();
    expect(doc.querySelectorAll('link[rel="stylesheet"]')).toHaveLength(0);
  });
});
