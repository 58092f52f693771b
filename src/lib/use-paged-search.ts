import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import { pagedSearchMachine, type PagedQuery, type PagedResult } from '#machines/paged-search.machine.ts';
import type { SortState } from '#src/components/ui/data-table.tsx';

/** `["createdOn desc"]` ↔ `{ key: 'createdOn', direction: 'desc' }` for one sortable column. */
export function sortOf(orderBy: string[] | null): SortState | null {
  const [first] = orderBy ?? [];
  if (!first) return null;
  const [key, direction = 'asc'] = first.split(/\s+/);
  return { key, direction: direction === 'desc' ? 'desc' : 'asc' };
}

export const orderByOf = (sort: SortState): string[] => [`${sort.key} ${sort.direction}`];

/**
 * A list screen's search as an actor (machines/paged-search.machine.ts): the view reads the
 * query and the page from it and sends user actions. `fetchPage` is the feature's API call.
 */
export function usePagedSearch<T>(fetchPage: (query: PagedQuery) => Promise<PagedResult<T>>, input?: Partial<PagedQuery>) {
  const machine = useMemo(
    () => pagedSearchMachine.provide({ actors: { fetchPage: fromPromise(({ input: query }) => fetchPage(query)) } }),
    // The fetch function is fixed for the life of the screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const [snapshot, send, actor] = useMachine(machine, { input });
  return {
    snapshot,
    send,
    actor,
    query: snapshot.context.query,
    result: snapshot.context.result as PagedResult<T> | null,
    error: snapshot.matches('failed') ? snapshot.context.error : null,
    busy: snapshot.hasTag('busy'),
    sort: sortOf(snapshot.context.query.orderBy),
  };
}
