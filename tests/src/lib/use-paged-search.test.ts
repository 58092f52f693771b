import { describe, expect, it } from 'vitest';
import { defaultQuery, type PagedQuery } from '#machines/paged-search.machine.ts';
import { eventsBetween, ownUrlWrites, paramsFromQuery, queryFromParams, type UrlFilters } from '#src/lib/use-paged-search.ts';

const defaults: PagedQuery = { ...defaultQuery, orderBy: ['createdOn asc'], filters: { statusId: 1 } };
const filters: UrlFilters = { statusId: 'number', supportGroupId: 'number', roleId: 'string' };
const url = (query: PagedQuery, current = '') => paramsFromQuery(query, defaults, filters, new URLSearchParams(current)).toString();
const from = (search: string) => queryFromParams(new URLSearchParams(search), defaults, filters);

describe('a list query in the URL', () => {
  it('should write only what differs from the list’s defaults, and keep other params', () => {
    expect(url(defaults)).toBe('');
    expect(
      url({ ...defaults, keyword: 'web cam', pageNumber: 3, pageSize: 25, orderBy: ['title desc'], filters: { statusId: 5, roleId: 'r-1' } }, 'tab=all'),
    ).toBe('tab=all&q=web+cam&page=3&size=25&sort=title+desc&statusId=5&roleId=r-1');
    // "All statuses" differs from the default Open filter: an empty value says so.
    expect(url({ ...defaults, filters: { statusId: null } })).toBe('statusId=');
    expect(url({ ...defaults, filters: { statusId: 1, roleId: '' } }, 'roleId=r-1')).toBe('');
  });

  it('should read back what it wrote, typed, and ignore what it does not know or cannot use', () => {
    const query: PagedQuery = {
      ...defaults,
      keyword: 'x',
      pageNumber: 2,
      orderBy: ['title asc'],
      filters: { statusId: null, supportGroupId: 4, roleId: 'r-2' },
    };
    expect(from(url(query))).toEqual(query);
    expect(from('page=-4&size=abc&statusId=oops&other=1')).toEqual(defaults);
    expect(from('')).toEqual(defaults);
  });

  it('should take the actor to a restored query with the fewest events, the page last', () => {
    expect(eventsBetween(defaults, defaults, filters)).toEqual([]);
    expect(eventsBetween(defaults, { ...defaults, pageNumber: 4 }, filters)).toEqual([{ type: 'search.page', pageNumber: 4 }]);
    expect(eventsBetween({ ...defaults, pageNumber: 4 }, { ...defaults, keyword: 'a', pageNumber: 2, filters: { statusId: null } }, filters)).toEqual([
      { type: 'search.filter', filters: { statusId: null } },
      { type: 'search.keyword', keyword: 'a' },
      { type: 'search.page', pageNumber: 2 },
    ]);
    expect(eventsBetween({ ...defaults, pageNumber: 4 }, { ...defaults, orderBy: ['title asc'] }, filters)).toEqual([
      { type: 'search.sort', orderBy: ['title asc'] },
    ]);
  });
});

describe('the URLs a list wrote itself', () => {
  it('should skip its own writes as they arrive, late ones included, and follow any other URL', () => {
    const writes = ownUrlWrites();
    // Back to page 1, then a keyword typed before the router showed the first write.
    writes.wrote('');
    writes.wrote('q=layer');
    // The first write arrives: the list does not follow it back to no keyword.
    expect(writes.arrived('')).toBe(true);
    expect(writes.arrived('q=layer')).toBe(true);
    // Back to an earlier URL, the same text as a write already seen: followed.
    expect(writes.arrived('')).toBe(false);
    expect(writes.arrived('page=2')).toBe(false);
  });

  it('should drop the writes a skipped-over arrival makes stale, and not count a write made twice', () => {
    const writes = ownUrlWrites();
    writes.wrote('page=2');
    writes.wrote('page=2');
    writes.wrote('page=3');
    // The router showed only the last write (it coalesced the two).
    expect(writes.arrived('page=3')).toBe(true);
    expect(writes.arrived('page=2')).toBe(false);
    // A URL the list never wrote clears what was pending.
    writes.wrote('q=a');
    expect(writes.arrived('sort=title')).toBe(false);
    expect(writes.arrived('q=a')).toBe(false);
  });
});
