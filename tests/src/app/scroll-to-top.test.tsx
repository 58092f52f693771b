import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ScrollToTop } from '#src/app/scroll-to-top.tsx';
import { testRouter } from '#tests/src/support/test-router.tsx';

describe('ScrollToTop', () => {
  it('should scroll smoothly to the top on every route change, not when only the search params change', () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const router = testRouter('/');
    render(
      <router.Router>
        <ScrollToTop />
      </router.Router>,
    );
    expect(scrollTo).toHaveBeenCalledTimes(1);
    router.go('/tickets');
    router.go('/users');
    expect(scrollTo).toHaveBeenCalledTimes(3);
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 0, behavior: 'smooth' });
    router.go('/users?page=2');
    expect(scrollTo).toHaveBeenCalledTimes(3);
    router.go(-1);
    router.go(-1);
    expect(router.current()).toBe('/tickets');
    expect(scrollTo).toHaveBeenCalledTimes(4);
    scrollTo.mockRestore();
  });
});
