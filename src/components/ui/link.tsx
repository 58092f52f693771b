import { forwardRef, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import { useHref, useLinkClickHandler, type To } from 'react-router-dom';

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  /** Where the link goes, as react-router resolves it (relative to the current route). */
  to: To;
  /** Replace the current history entry instead of pushing one (react-router's default when the link points at the current address). */
  replace?: boolean;
};

/**
 * A link inside the app: a plain `<a href>` whose click the router handles (modified clicks,
 * other targets and downloads stay the browser's). react-router's own `Link` also carries
 * framework-mode prefetching and view transitions, which this app does not use and which would
 * sit in the first render, since the router is there (docs/decisions/0180).
 */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link({ to, replace, onClick, target, children, ...rest }, ref) {
  const href = useHref(to);
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { replace, target });
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!event.defaultPrevented) navigate(event);
  };
  return (
    <a {...rest} ref={ref} href={href} target={target} onClick={handleClick}>
      {children}
    </a>
  );
});
