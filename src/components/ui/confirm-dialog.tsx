import { lazy, Suspense, useCallback, useRef, useState, type ReactNode } from 'react';
import { loadChunk } from '#src/lib/lazy-chunk.ts';

// The dialog's code (Ark Dialog, focus trap) loads when a question is first asked, not with the screen.
const ConfirmDialog = lazy(async () => ({ default: (await loadChunk(() => import('./confirm-dialog-view.tsx'))).ConfirmDialog }));

export interface ConfirmOptions {
  title: ReactNode;
  /** What happens, in a sentence the user can check (names the user, the file, the ticket). */
  message: ReactNode;
  /** The verb of the action ("Deactivate", "Delete"); "Confirm" when absent. */
  confirmLabel?: string;
  /** Destructive actions get the danger button. */
  tone?: 'danger' | 'primary';
}

/**
 * `await confirm({...})` in place of `window.confirm`: resolves true when the user confirms,
 * false when they cancel or dismiss. Render `element` once in the screen.
 */
export function useConfirm(): { confirm: (options: ConfirmOptions) => Promise<boolean>; element: ReactNode } {
  const [pending, setPending] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<((answer: boolean) => void) | null>(null);

  const settle = useCallback((answer: boolean) => {
    resolver.current?.(answer);
    resolver.current = null;
    setPending(null);
  }, []);

  const confirm = useCallback((options: ConfirmOptions) => {
    // A second question replaces an unanswered first one, which counts as cancelled.
    resolver.current?.(false);
    setPending(options);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const element = pending ? (
    <Suspense fallback={null}>
      <ConfirmDialog {...pending} onConfirm={() => settle(true)} onCancel={() => settle(false)} />
    </Suspense>
  ) : null;
  return { confirm, element };
}
