import type { EventObject } from 'xstate';
import { pagedSearchMachine, type PagedResult, type PagedSearchEvent } from './paged-search.machine.ts';
import { createMachineTestModel, transitionCoveringPaths } from './test-model.ts';

const page: PagedResult = { data: [{ id: 1 }], currentPage: 1, totalPages: 3, totalCount: 21, pageSize: 10, hasPreviousPage: false, hasNextPage: true };

/** Every kind of user action once, and the server answering or failing. */
export const pagedSearchModelEvents: Array<PagedSearchEvent | EventObject> = [
  { type: 'search.keyword', keyword: 'printer' },
  { type: 'search.page', pageNumber: 2 },
  { type: 'search.pageSize', pageSize: 25 },
  { type: 'search.sort', orderBy: ['createdOn desc'] },
  { type: 'search.filter', filters: { statusId: 1 } },
  // A second filter merges with the first; a page below 1 is page 1.
  { type: 'search.filter', filters: { supportGroupId: 3 } },
  { type: 'search.page', pageNumber: 0 },
  { type: 'search.reload' },
  { type: 'xstate.done.actor.fetchPage', output: page } as EventObject,
  { type: 'xstate.error.actor.fetchPage', error: { messages: ['Server unavailable'], statusCode: 503 } } as EventObject,
];

export function pagedSearchModel() {
  return createMachineTestModel(pagedSearchMachine, {
    events: () => pagedSearchModelEvents,
    // The query grows with every event; what matters for the graph is the state and whether a
    // page or an error is held.
    serializeState: (snapshot) =>
      `${JSON.stringify(snapshot.value)}|${snapshot.context.result ? 'page' : 'no page'}|${snapshot.context.error ? 'error' : 'no error'}`,
  });
}

export function pagedSearchTestPaths() {
  return transitionCoveringPaths(pagedSearchModel());
}
