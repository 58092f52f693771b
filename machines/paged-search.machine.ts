import { assign, fromPromise, setup } from 'xstate';
import type { DoneActorEvent, ErrorActorEvent } from 'xstate';

/**
 * A list screen's search (spec §3 search request → paged result): keyword (debounced), page,
 * page size, order and filters. The previous page stays on screen while the next one loads;
 * a newer request replaces one still in flight. The view provides `fetchPage`.
 */
export interface PagedQuery {
  keyword: string;
  pageNumber: number;
  pageSize: number;
  orderBy: string[] | null;
  filters: Record<string, unknown>;
}

export interface PagedResult<T = unknown> {
  data: T[];
  currentPage: number;
  totalPages: number;
  totalCount: number;
  pageSize: number;
  hasPreviousPage: boolean;
  hasNextPage: boolean;
}

export interface PagedSearchContext {
  query: PagedQuery;
  result: PagedResult | null;
  error: unknown;
}

export type PagedSearchEvent =
  | { type: 'search.keyword'; keyword: string }
  | { type: 'search.page'; pageNumber: number }
  | { type: 'search.pageSize'; pageSize: number }
  | { type: 'search.sort'; orderBy: string[] | null }
  | { type: 'search.filter'; filters: Record<string, unknown> }
  | { type: 'search.reload' };

/** Spec-free choice: wait this long after the last keystroke before searching. */
export const KEYWORD_DEBOUNCE_MS = 300;

export const defaultQuery: PagedQuery = { keyword: '', pageNumber: 1, pageSize: 10, orderBy: null, filters: {} };

export const pagedSearchMachine = setup({
  types: {
    context: {} as PagedSearchContext,
    events: {} as PagedSearchEvent,
    input: {} as Partial<PagedQuery> | undefined,
  },
  actors: {
    fetchPage: fromPromise<PagedResult, PagedQuery>(async () => {
      throw new Error('fetchPage must be provided by the view');
    }),
  },
  actions: {
    // Each setter is wired to one event only (the `on` map below), which passes the value as
    // params: no event-type check in here that could only repeat what the `on` key says.
    setKeyword: assign({ query: ({ context }, keyword: string) => ({ ...context.query, keyword, pageNumber: 1 }) }),
    setPage: assign({ query: ({ context }, pageNumber: number) => ({ ...context.query, pageNumber: Math.max(1, pageNumber) }) }),
    setPageSize: assign({ query: ({ context }, pageSize: number) => ({ ...context.query, pageSize, pageNumber: 1 }) }),
    setOrder: assign({ query: ({ context }, orderBy: string[] | null) => ({ ...context.query, orderBy, pageNumber: 1 }) }),
    setFilters: assign({
      query: ({ context }, filters: Record<string, unknown>) => ({ ...context.query, filters: { ...context.query.filters, ...filters }, pageNumber: 1 }),
    }),
    storeResult: assign({ result: (_, result: PagedResult) => result, error: null }),
    storeError: assign({ error: (_, error: unknown) => error }),
  },
}).createMachine({
  id: 'pagedSearch',
  context: ({ input }) => ({ query: { ...defaultQuery, ...input, filters: { ...input?.filters } }, result: null, error: null }),
  initial: 'loading',
  on: {
    'search.keyword': { target: '.debouncing', actions: { type: 'setKeyword', params: ({ event }) => event.keyword } },
    'search.page': { target: '.loading', actions: { type: 'setPage', params: ({ event }) => event.pageNumber } },
    'search.pageSize': { target: '.loading', actions: { type: 'setPageSize', params: ({ event }) => event.pageSize } },
    'search.sort': { target: '.loading', actions: { type: 'setOrder', params: ({ event }) => event.orderBy } },
    'search.filter': { target: '.loading', actions: { type: 'setFilters', params: ({ event }) => event.filters } },
    'search.reload': { target: '.loading' },
  },
  states: {
    debouncing: {
      tags: ['busy'],
      after: { [KEYWORD_DEBOUNCE_MS]: 'loading' },
    },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'fetchPage',
        src: 'fetchPage',
        input: ({ context }) => context.query,
        onDone: { target: 'ready', actions: { type: 'storeResult', params: ({ event }: { event: DoneActorEvent<PagedResult> }) => event.output } },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }: { event: ErrorActorEvent }) => event.error } },
      },
    },
    ready: {},
    failed: {},
  },
});
