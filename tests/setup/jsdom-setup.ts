import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

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
