/** The mark the build puts on the app's style sheet preloads, and that this module looks for. */
export const APP_STYLESHEET_ATTRIBUTE = 'data-app-stylesheet';

/**
 * The app's own style sheets, which the built index.html only preloads so that the boot splash
 * paints without waiting for them (scripts/vite/stylesheet-after-splash.ts, docs/decisions/0295).
 * Attached as real style sheets here; the first render waits for them, so no screen is ever drawn
 * unstyled. A sheet that fails to load does not hold the app back: it renders, unstyled, and the
 * error boundary and the version check work as before. In development Vite injects the styles
 * from the modules, and there is nothing to attach.
 */
export function attachAppStylesheets(doc: Document = document): Promise<void> {
  const preloads = [...doc.querySelectorAll<HTMLLinkElement>(`link[rel="preload"][as="style"][${APP_STYLESHEET_ATTRIBUTE}]`)];
  return Promise.all(
    preloads.map(
      (preload) =>
        new Promise<void>((resolve) => {
          const sheet = doc.createElement('link');
          sheet.rel = 'stylesheet';
          // The same CORS mode as the preload, or the browser fetches the file a second time.
          const crossOrigin = preload.getAttribute('crossorigin');
          if (crossOrigin !== null) sheet.setAttribute('crossorigin', crossOrigin);
          sheet.href = preload.href;
          sheet.addEventListener('load', () => resolve(), { once: true });
          sheet.addEventListener('error', () => resolve(), { once: true });
          preload.after(sheet);
        }),
    ),
  ).then(() => undefined);
}
