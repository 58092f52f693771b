import { act, render } from '@testing-library/react';
import { Router, useLocation } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { describe, expect, it, vi } from 'vitest';
import { ScrollToTop } from '#src/app/scroll-to-top.tsx';

let go: (path: string) => void = () => {};
function Navigator() {
  const [, navigate] = useLocation();
  go = (path) => navigate(path);
  return null;
}

describe('ScrollToTop', () => {
  it('should scroll smoothly to the top on every route change', () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    render(
      <Router hook={memoryLocation({ path: '/' }).hook}>
        <ScrollToTop />
        <Navigator />
      </Router>,
    );
    expect(scrollTo).toHaveBeenCalledTimes(1);
    act(() => go('/tickets'));
    act(() => go('/users'));
    expect(scrollTo).toHaveBeenCalledTimes(3);
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 0, behavior: 'smooth' });
    scrollTo.mockRestore();
  });
});
