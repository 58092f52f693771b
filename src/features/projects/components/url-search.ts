import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { PagedQuery } from '#machines/paged-search.machine.ts';

/** The list state a screen keeps in its URL (keyword, page, sort), so a reload or a shared link shows the same list. */
export function queryFromUrl(params: URLSearchParams, defaults: Partial<PagedQuery>): Partial<PagedQuery> {
  const page = Number(params.get('page'));
  const sort = params.get('sort');
  return {
    ...defaults,
    keyword: params.get('q') ?? defaults.keyword ?? '',
    pageNumber: Number.isSafeInteger(page) && page > 0 ? page : 1,
    orderBy: sort ? [sort] : (defaults.orderBy ?? null),
  };
}

/** Writes the query back to the URL as it changes (replacing the entry: typing is not navigation). */
export function useQueryInUrl(query: PagedQuery) {
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    const next = new URLSearchParams(params);
    const set = (name: string, value: string | null) => (value ? next.set(name, value) : next.delete(name));
    set('q', query.keyword || null);
    set('page', query.pageNumber > 1 ? String(query.pageNumber) : null);
    set('sort', query.orderBy?.[0] ?? null);
    if (next.toString() !== params.toString()) setParams(next, { replace: true });
    // Only the query drives this; params is read as it is now.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query.keyword, query.pageNumber, query.orderBy?.[0]]);
}
