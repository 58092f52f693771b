import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether the element has come near the viewport (within `rootMargin`); once true it stays true.
 * For work worth doing only for what a person can see (a chart below a phone's fold, issue 22).
 * Where IntersectionObserver is missing (jsdom, old browsers) the element counts as seen.
 */
export function useInView(ref: RefObject<Element | null>, rootMargin = '200px'): boolean {
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (seen || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
      },
      { rootMargin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, rootMargin, seen]);
  return seen;
}
