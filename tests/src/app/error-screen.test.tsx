import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppErrorBoundary } from '#src/app/error-boundary.tsx';
import { BACK_HOME_DELAY_MS, ErrorScreen } from '#src/app/error-screen.tsx';
import { i18n, initI18n } from '#src/i18n/i18n.ts';

beforeAll(async () => {
  await initI18n('en-IN');
});
afterEach(() => {
  vi.useRealTimers();
});

function Thrower(): never {
  throw new Error('boom');
}

describe('ErrorScreen', () => {
  it('should show the texts of the spec', () => {
    render(
      <I18nextProvider i18n={i18n}>
        <ErrorScreen onBackHome={() => {}} />
      </I18nextProvider>,
    );
    expect(screen.getByRole('heading', { name: 'Something Went Wrong!' })).toBeInTheDocument();
    expect(screen.getByText('Please try again after some time.')).toBeInTheDocument();
    expect(screen.getByText('Or')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to home' })).toBeEnabled();
  });

  it('should show a loading state and go home only after 2 seconds', async () => {
    vi.useFakeTimers();
    const onBackHome = vi.fn();
    render(
      <I18nextProvider i18n={i18n}>
        <ErrorScreen onBackHome={onBackHome} />
      </I18nextProvider>,
    );
    act(() => screen.getByRole('button', { name: 'Back to home' }).click());
    const busy = screen.getByRole('button', { name: 'Returning home…' });
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(busy).toBeDisabled();
    act(() => vi.advanceTimersByTime(BACK_HOME_DELAY_MS - 1));
    expect(onBackHome).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onBackHome).toHaveBeenCalledTimes(1);
    expect(BACK_HOME_DELAY_MS).toBe(2000);
  });

  it('should be what the boundary renders after a rendering error', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <I18nextProvider i18n={i18n}>
        <AppErrorBoundary>
          <Thrower />
        </AppErrorBoundary>
      </I18nextProvider>,
    );
    expect(screen.getByRole('heading', { name: 'Something Went Wrong!' })).toBeInTheDocument();
    spy.mockRestore();
  });
});
