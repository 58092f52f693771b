import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const html = readFileSync(path.resolve(import.meta.dirname, '../../../index.html'), 'utf8');

describe('the boot splash in index.html (issue 23)', () => {
  it('should sit inside #root, so the first render replaces it, and say what is loading', () => {
    const document = new DOMParser().parseFromString(html, 'text/html');
    const splash = document.querySelector('#root > [data-testid=boot-splash]');
    expect(splash).not.toBeNull();
    expect(splash!.getAttribute('role')).toBe('status');
    expect(splash!.getAttribute('aria-label')).toBe('Exam Portal');
    expect(splash!.querySelector('svg')).not.toBeNull();
  });

  it('should need no script (CSP script-src self) and honour reduced motion and dark mode', () => {
    const document = new DOMParser().parseFromString(html, 'text/html');
    const inline = [...document.querySelectorAll('script')].filter((script) => !script.getAttribute('src'));
    expect(inline).toEqual([]);
    const style = document.querySelector('head style')?.textContent ?? '';
    expect(style).toContain('.boot-splash');
    expect(style).toContain('prefers-reduced-motion: reduce');
    expect(style).toContain('prefers-color-scheme: dark');
  });
});
