import { useEffect, useRef } from 'react';
import { toastActor } from './toast-runtime.ts';

/**
 * Holds a toast's timer while `held` (details expanded, pointer over it, focus inside it) and
 * releases it when that ends. Sends only on changes.
 */
export function useToastHold(id: string, held: boolean) {
  const previous = useRef(false);
  useEffect(() => {
    if (previous.current === held) return;
    previous.current = held;
    toastActor.send({ type: held ? 'toast.pause' : 'toast.resume', id });
  }, [id, held]);
}

/** Pointer and focus tracking for a toast's element. */
export function holdHandlers(setHovered: (v: boolean) => void, setFocused: (v: boolean) => void) {
  return {
    onPointerEnter: () => setHovered(true),
    onPointerLeave: () => setHovered(false),
    onFocus: () => setFocused(true),
    onBlur: (event: React.FocusEvent<HTMLElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
    },
  };
}
