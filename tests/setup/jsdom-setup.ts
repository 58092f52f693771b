import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy… and waitFor wait for a state, not for a time: on a loaded 2-core runner a lazy screen's
// first render can take longer than testing-library's 1 s default (two CI runs failed on that).
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
});

// jsdom has no matchMedia; layouts ask for it. Default: a large screen.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: /min-width:\s*(\d+)px/.test(query) ? Number(/min-width:\s*(\d+)px/.exec(query)![1]) <= 1400 : false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (!window.scrollTo || String(window.scrollTo).includes('not implemented')) {
  window.scrollTo = (() => {}) as typeof window.scrollTo;
}

// jsdom has no modal dialogs; this stand-in keeps the parts our <dialog> components rely on
// (the real behaviour — focus containment, inert page, Escape — is tested in Chromium).
const dialogProto = HTMLDialogElement.prototype as HTMLDialogElement & { showModal?: () => void };
if (typeof dialogProto.showModal !== 'function') {
  dialogProto.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  dialogProto.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}

// jsdom measures nothing and has no ResizeObserver; Ark UI's floating parts (menus, tooltips,
// selects) observe their anchor's size to place themselves. Placement is tested in Chromium.
if (typeof window.ResizeObserver === 'undefined') {
  window.ResizeObserver = class ResizeObserver {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof window.ResizeObserver;
}

// jsdom lays nothing out and has no element scrolling; Ark's select scrolls its list to the
// chosen option when it opens. Scrolling is checked in Chromium.
if (typeof Element.prototype.scrollTo !== 'function') Element.prototype.scrollTo = function scrollTo() {};
if (typeof Element.prototype.scrollIntoView !== 'function') Element.prototype.scrollIntoView = function scrollIntoView() {};
