import type { Plugin } from 'vite';
import { APP_STYLESHEET_ATTRIBUTE } from '../../src/app/app-stylesheets.ts';

/**
 * The boot splash paints before the app's style sheet has arrived (issue 22,
 * docs/decisions/0295). A style sheet the parser meets, in the head or the body, holds back
 * every paint until it has loaded, although the splash is styled inline. So the page's HTML only
 * asks for it early (`<link rel="preload" as="style">`, marked `data-app-stylesheet`), and the
 * app attaches it and waits for it before its first render (`src/app/app-stylesheets.ts`).
 */
const stylesheetLink = /<link rel="stylesheet"([^>]*)>/g;

/** index.html with each `<link rel="stylesheet">` turned into a marked preload of the same file. */
export function preloadStylesheets(html: string): string {
  return html.replace(stylesheetLink, (_link, attributes: string) => `<link rel="preload" as="style"${attributes} ${APP_STYLESHEET_ATTRIBUTE}>`);
}

export function stylesheetAfterSplash(): Plugin {
  return {
    name: 'stylesheet-after-splash',
    apply: 'build',
    transformIndexHtml: { order: 'post', handler: preloadStylesheets },
  };
}
