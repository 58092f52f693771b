import { useActorRef } from '@xstate/react';
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { defaultQuery, pagedSearchMachine, type PagedQuery, type PagedResult, type PagedSearchEvent } from '#machines/paged-search.machine.ts';
import type { SortState } from '#src/components/ui/data-table.tsx';

/** `["createdOn desc"]` ↔ `{ key: 'createdOn', direction: 'desc' }` for one sortable column. */
export function sortOf(orderBy: string[] | null): SortState | null {
  const [first] = orderBy ?? [];
  if (!first) return null;
  const [key, direction = 'asc'] = first.split(/\s+/);
  return { key, direction: direction === 'desc' ? 'desc' : 'asc' };
}

export const orderByOf = (sort: SortState): string[] => [`${sort.key} ${sort.direction}`];

/** The filters a list keeps in the URL, by name, with the type their values have in the query. */
export type UrlFilters = Record<string, 'string' | 'number'>;

/** The search params a list's query uses besides its filters (docs/decisions/0081). */
const KEYWORD = 'q';
const PAGE = 'page';
const PAGE_SIZE = 'size';
const SORT = 'sort';

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';
const sameValue = (a: unknown, b: unknown) => (isEmpty(a) && isEmpty(b)) || a === b;
const positive = (text: string | null, fallback: number) => {
  const value = Number(text);
  return text !== null && Number.isSafeInteger(value) && value > 0 ? value : fallback;
};

/**
 * The query a URL describes: every part it does not name keeps the list's default. A filter
 * present but empty (`statusId=`) means "no filter", even where the default filters.
 */
export function queryFromParams(params: URLSearchParams, defaults: PagedQuery, filters: UrlFilters): PagedQuery {
  const query: PagedQuery = { ...defaults, filters: { ...defaults.filters } };
  query.keyword = params.get(KEYWORD) ?? defaults.keyword;
  query.pageNumber = positive(params.get(PAGE), defaults.pageNumber);
  query.pageSize = positive(params.get(PAGE_SIZE), defaults.pageSize);
  const sort = params.get(SORT);
  if (sort !== null) query.orderBy = sort ? [sort] : null;
  for (const [name, type] of Object.entries(filters)) {
    const text = params.get(name);
    if (text === null) continue;
    if (text === '') query.filters[name] = null;
    else if (type === 'number') query.filters[name] = Number.isFinite(Number(text)) ? Number(text) : defaults.filters[name];
    else query.filters[name] = text;
  }
  return query;
}

/** The URL for a query: only what differs from the list's defaults, other params (a tab) kept. */
export function paramsFromQuery(query: PagedQuery, defaults: PagedQuery, filters: UrlFilters, current: URLSearchParams): URLSearchParams {
  const params = new URLSearchParams(current);
  const put = (name: string, value: string | null) => (value === null ? params.delete(name) : params.set(name, value));
  put(KEYWORD, query.keyword === defaults.keyword ? null : query.keyword);
  put(PAGE, query.pageNumber === defaults.pageNumber ? null : String(query.pageNumber));
  put(PAGE_SIZE, query.pageSize === defaults.pageSize ? null : String(query.pageSize));
  const sort = query.orderBy?.[0] ?? '';
  put(SORT, sort === (defaults.orderBy?.[0] ?? '') ? null : sort);
  for (const name of Object.keys(filters)) {
    const value = query.filters[name];
    put(name, sameValue(value, defaults.filters[name]) ? null : isEmpty(value) ? '' : String(value));
  }
  return params;
}

/** The events that take the actor from one query to another (restoring a URL: back, forward, a shared link). */
export function eventsBetween(from: PagedQuery, to: PagedQuery, filters: UrlFilters): PagedSearchEvent[] {
  const events: PagedSearchEvent[] = [];
  const changedFilters = Object.fromEntries(
    Object.keys(filters)
      .filter((name) => !sameValue(from.filters[name], to.filters[name]))
      .map((name) => [name, to.filters[name] ?? null]),
  );
  if (Object.keys(changedFilters).length) events.push({ type: 'search.filter', filters: changedFilters });
  if ((from.orderBy?.[0] ?? '') !== (to.orderBy?.[0] ?? '')) events.push({ type: 'search.sort', orderBy: to.orderBy });
  if (from.pageSize !== to.pageSize) events.push({ type: 'search.pageSize', pageSize: to.pageSize });
  if (from.keyword !== to.keyword) events.push({ type: 'search.keyword', keyword: to.keyword });
  // Each change above starts again at page 1, so the page goes last.
  if (events.length ? to.pageNumber !== 1 : from.pageNumber !== to.pageNumber) events.push({ type: 'search.page', pageNumber: to.pageNumber });
  return events;
}

/**
 * The URLs a list wrote itself and the router has not shown yet. The router applies a write a
 * little later (in a transition); a keyword typed in between would be overwritten if the list
 * followed its own older URL back. A URL the list wrote is skipped, once, when it arrives;
 * anything else (back, forward, a link) is followed.
 */
export function ownUrlWrites() {
  const pending: string[] = [];
  return {
    wrote(search: string) {
      // React's development double run of effects writes the same URL twice.
      if (pending.at(-1) !== search) pending.push(search);
    },
    /** True when `search` is one of the list's own writes arriving; it and the ones before it are then done. */
    arrived(search: string) {
      const index = pending.indexOf(search);
      pending.splice(0, index < 0 ? pending.length : index + 1);
      return index >= 0;
    },
  };
}

/**
 * A list screen's search as an actor (machines/paged-search.machine.ts): the view reads the
 * query and the page from it and sends user actions. `fetchPage` is the feature's API call.
 * The query lives in the URL's search params too (docs/decisions/0081): keyword, page, page
 * size, sort and the filters named in `urlFilters`, so a reload, back and forward, and a shared
 * link show the same list. Typing a keyword replaces the history entry; every other change adds one.
 */
export function usePagedSearch<T>(fetchPage: (query: PagedQuery) => Promise<PagedResult<T>>, input?: Partial<PagedQuery>, urlFilters: UrlFilters = {}) {
  const machine = useMemo(
    () => pagedSearchMachine.provide({ actors: { fetchPage: fromPromise(({ input: query }) => fetchPage(query)) } }),
    // The fetch function is fixed for the life of the screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const [params, setParams] = useSearchParams();
  // The defaults and the URL's filters are fixed for the life of the screen too.
  const fixed = useRef({ defaults: { ...defaultQuery, ...input, filters: { ...input?.filters } }, filters: urlFilters }).current;
  const [shown, setShown] = useState<SnapshotFrom<typeof pagedSearchMachine> | null>(null);
  const shownResult = useRef<unknown>(null);
  // A page of results arriving is rendered in a transition: React renders the rows in slices of
  // a few milliseconds and commits the whole screen at once, where a store update would render
  // every row, menu and badge in one task (620 ms on /users under Lighthouse's phone slowdown,
  // most of the page's blocking time; issue 22, docs/decisions/0293). Every other change (busy,
  // the query, an error) is shown at once.
  const show = useCallback((next: SnapshotFrom<typeof pagedSearchMachine>) => {
    const arrived = next.context.result !== shownResult.current && next.context.result !== null;
    shownResult.current = next.context.result;
    if (arrived) startTransition(() => setShown(next));
    else setShown(next);
  }, []);
  const actor = useActorRef(machine, { input: queryFromParams(params, fixed.defaults, fixed.filters) }, show);
  const snapshot = shown ?? actor.getSnapshot();
  const send = actor.send;
  const query = snapshot.context.query;

  const [ownWrites] = useState(ownUrlWrites);

  // The URL moved (back, forward, a link): the actor follows.
  useEffect(() => {
    if (ownWrites.arrived(params.toString())) return;
    const wanted = queryFromParams(params, fixed.defaults, fixed.filters);
    for (const event of eventsBetween(actor.getSnapshot().context.query, wanted, fixed.filters)) actor.send(event);
  }, [params, actor, fixed, ownWrites]);

  // The query changed (the user searched, sorted, filtered, paged): the URL follows. Only a
  // change of the query counts: when the URL moved, the effect above brings the query along.
  const latest = useRef({ params, setParams });
  latest.current = { params, setParams };
  useEffect(() => {
    const { params: current, setParams: setUrl } = latest.current;
    const next = paramsFromQuery(query, fixed.defaults, fixed.filters, current);
    if (next.toString() === current.toString()) return;
    const before = queryFromParams(current, fixed.defaults, fixed.filters);
    const onlyKeyword = eventsBetween(before, query, fixed.filters).every((event) => event.type === 'search.keyword');
    ownWrites.wrote(next.toString());
    setUrl(next, { replace: onlyKeyword });
  }, [query, fixed, ownWrites]);

  return {
    snapshot,
    send,
    actor,
    query,
    result: snapshot.context.result as PagedResult<T> | null,
    error: snapshot.matches('failed') ? snapshot.context.error : null,
    busy: snapshot.hasTag('busy'),
    sort: sortOf(snapshot.context.query.orderBy),
  };
}
