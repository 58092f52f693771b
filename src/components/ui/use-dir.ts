import { useSyncExternalStore } from 'react';

/**
 * The document's reading direction (`<html dir>`, set by the theme settings), for Ark UI
 * components: arrow keys in tabs and radio groups, and menu placement, follow it.
 */
export function useDir(): 'ltr' | 'rtl' {
  return useSyncExternalStore(subscribe, read, () => 'ltr');
}

function read(): 'ltr' | 'rtl' {
  return document.documentElement.dir === 'rtl' ? 'rtl' : 'ltr';
}

function subscribe(onChange: () => void) {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['dir'] });
  return () => observer.disconnect();
}
