import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type EventObject } from 'xstate';
import { KEYWORD_DEBOUNCE_MS, pagedSearchMachine, type PagedQuery, type PagedResult } from '#machines/paged-search.machine.ts';
import { pagedSearchTestPaths } from '#machines/paged-search.model.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';
import { IndependentExpectation, rulesNoPathTakes } from '#tests/fixtures/expectations/expectation-table.ts';
import { initialQuery, pagedSearchExpectation } from '#tests/fixtures/expectations/paged-search.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { replayPath } from './support/replay-path.ts';

afterEach(() => {
  vi.useRealTimers();
});

const resultFor = (query: PagedQuery): PagedResult => ({
  data: [query],
  currentPage: query.pageNumber,
  totalPages: 5,
  totalCount: 42,
  pageSize: query.pageSize,
  hasPreviousPage: query.pageNumber > 1,
  hasNextPage: query.pageNumber < 5,
});

function start(fetch = vi.fn(async (query: PagedQuery) => resultFor(query)), input?: Partial<PagedQuery>) {
  const actor = createActor(pagedSearchMachine.provide({ actors: { fetchPage: fromPromise(({ input }) => fetch(input)) } }), { input }).start();
  return { actor, fetch };
}

describe('paged-search machine', () => {
  it('should load the first page of the initial query', async () => {
    vi.useFakeTimers();
    const { actor, fetch } = start(undefined, { pageSize: 25, filters: { statusId: 2 } });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('ready');
    expect(fetch).toHaveBeenCalledWith({ keyword: '', pageNumber: 1, pageSize: 25, orderBy: null, filters: { statusId: 2 } });
    expect(actor.getSnapshot().context.result?.totalCount).toBe(42);
  });

  it('should wait 300 ms after the last keystroke and search from page 1', async () => {
    vi.useFakeTimers();
    const { actor, fetch } = start();
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'search.page', pageNumber: 3 });
    await vi.advanceTimersByTimeAsync(0);
    fetch.mockClear();
    actor.send({ type: 'search.keyword', keyword: 'pri' });
    await vi.advanceTimersByTimeAsync(KEYWORD_DEBOUNCE_MS - 50);
    actor.send({ type: 'search.keyword', keyword: 'printer' });
    await vi.advanceTimersByTimeAsync(KEYWORD_DEBOUNCE_MS - 1);
    expect(fetch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledWith(expect.objectContaining({ keyword: 'printer', pageNumber: 1 }));
  });

  it('should keep the previous page on screen while the next one loads, and drop a superseded answer', async () => {
    vi.useFakeTimers();
    const answers: Array<(r: PagedResult) => void> = [];
    const fetch = vi.fn((_query: PagedQuery) => new Promise<PagedResult>((resolve) => answers.push(resolve)));
    const { actor } = start(fetch);
    answers[0](resultFor({ keyword: '', pageNumber: 1, pageSize: 10, orderBy: null, filters: {} }));
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'search.page', pageNumber: 2 });
    actor.send({ type: 'search.page', pageNumber: 3 });
    expect(actor.getSnapshot().context.result?.currentPage).toBe(1);
    answers[1](resultFor({ keyword: '', pageNumber: 2, pageSize: 10, orderBy: null, filters: {} }));
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('loading');
    answers[2](resultFor({ keyword: '', pageNumber: 3, pageSize: 10, orderBy: null, filters: {} }));
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.result?.currentPage).toBe(3);
  });

  it('should merge filters, reset to page 1 on filter, size and order changes, and keep the error of a failed load', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(async (query: PagedQuery) => {
      if (query.filters.statusId === 9) throw { messages: ['boom'], statusCode: 500 };
      return resultFor(query);
    });
    const { actor } = start(fetch, { filters: { supportGroupId: 2 } });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'search.page', pageNumber: 4 });
    actor.send({ type: 'search.filter', filters: { statusId: 1 } });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.query).toMatchObject({ pageNumber: 1, filters: { supportGroupId: 2, statusId: 1 } });
    actor.send({ type: 'search.sort', orderBy: ['title asc'] });
    actor.send({ type: 'search.pageSize', pageSize: 50 });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.query).toMatchObject({ pageNumber: 1, pageSize: 50, orderBy: ['title asc'] });
    actor.send({ type: 'search.filter', filters: { statusId: 9 } });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toEqual({ messages: ['boom'], statusCode: 500 });
    actor.send({ type: 'search.filter', filters: { statusId: 1 } });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  // Issue 14 survivor: the test above sends a sort first, which already resets the page, so
  // dropping `pageNumber: 1` from setPageSize survived. Here the size change comes straight
  // after a page change and alone.
  it('should go back to page 1 when only the page size changes', async () => {
    vi.useFakeTimers();
    const { actor, fetch } = start();
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'search.page', pageNumber: 4 });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.query.pageNumber).toBe(4);
    fetch.mockClear();
    actor.send({ type: 'search.pageSize', pageSize: 25 });
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledWith({ keyword: '', pageNumber: 1, pageSize: 25, orderBy: null, filters: {} });
    expect(actor.getSnapshot().context.result?.currentPage).toBe(1);
  });
});

describe('paged-search machine: what the mutation run showed untested (issue 14)', () => {
  it('should never ask for a page before the first', async () => {
    vi.useFakeTimers();
    const { actor, fetch } = start();
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'search.page', pageNumber: 3 });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'search.page', pageNumber: 0 });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'search.page', pageNumber: -2 });
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch.mock.calls.map(([query]) => query.pageNumber)).toEqual([1, 3, 1, 1]);
  });

  it('should start from the default query without an input, and copy the filters it is given', async () => {
    vi.useFakeTimers();
    const { fetch } = start();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledWith({ keyword: '', pageNumber: 1, pageSize: 10, orderBy: null, filters: {} });
    const filters = { statusId: 1 };
    const { actor } = start(undefined, { filters });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'search.filter', filters: { priorityId: 2 } });
    await vi.advanceTimersByTimeAsync(0);
    expect(filters, 'the caller’s object is not changed').toEqual({ statusId: 1 });
  });

  it('should keep the previous page while a reload runs and replace the error of a failed one', async () => {
    vi.useFakeTimers();
    let fail = false;
    const { actor } = start(
      vi.fn(async (query: PagedQuery) => {
        if (fail) throw { statusCode: 503, messages: ['Service unavailable'] };
        return resultFor(query);
      }),
    );
    await vi.advanceTimersByTimeAsync(0);
    fail = true;
    actor.send({ type: 'search.reload' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.result?.currentPage, 'the last page stays on screen').toBe(1);
    expect(actor.getSnapshot().context.error).toEqual({ statusCode: 503, messages: ['Service unavailable'] });
  });

  it('should fail loudly when the view provides no way to fetch a page', async () => {
    vi.useFakeTimers();
    const actor = createActor(pagedSearchMachine, { input: undefined }).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('failed');
    expect((actor.getSnapshot().context.error as Error).message).toBe('fetchPage must be provided by the view');
  });
});

describe('paged-search model', () => {
  const paths = pagedSearchTestPaths();
  const recorder = replayRecorder(pagedSearchMachine, 'machine', true);
  afterAll(() => void recorder.write());

  it.each(paths.map((path) => [path.description, path] as const))('should walk %s', (_description, path) =>
    recorder.run(path, async () => {
      let pending: { resolve: (v: unknown) => void; reject: (e: unknown) => void } | undefined;
      const sent: PagedQuery[] = [];
      const independent = new IndependentExpectation(pagedSearchExpectation, { query: initialQuery(), searches: 0, sent: () => sent });
      await replayPath(path, {
        independent,
        start: () =>
          createActor(
            pagedSearchMachine.provide({
              actors: {
                fetchPage: fromPromise(({ input }: { input: PagedQuery }) => {
                  sent.push(input);
                  return new Promise((resolve, reject) => (pending = { resolve, reject }));
                }) as never,
              },
            }),
            { input: undefined },
          ).start(),
        settle: (event: EventObject) => {
          if (!pending) return false;
          const waiting = pending;
          pending = undefined;
          if (event.type.startsWith('xstate.done.')) waiting.resolve((event as EventObject & { output: unknown }).output);
          else waiting.reject((event as EventObject & { error: unknown }).error);
          return true;
        },
        expectSame: (live, model) => {
          expect(live.value).toEqual(model.value);
          expect(live.context.query).toEqual(model.context.query);
          expect(Boolean(live.context.result)).toBe(Boolean(model.context.result));
        },
      });
    }),
  );

  it('should take every rule of the independent table on some path (a transition the machine lacks has no path)', () => {
    expect(rulesNoPathTakes(pagedSearchExpectation, () => ({ query: initialQuery(), searches: 0, sent: () => [] }), paths as never)).toEqual([]);
  });

  it('should reach every state and transition of the paged search', () => {
    const report = reportMachineCoverage(pagedSearchMachine, paths);
    expect(report.states.covered).toEqual(report.states.total);
    expect(report.transitions.covered.sort()).toEqual(report.transitions.total.sort());
  });
});
