import { describe, expect, it } from 'vitest';
import { ValidationFailure } from '#server/lib/errors.ts';
import { orderByClause, paged, pageWindow, searchKeyword } from '#server/lib/paging.ts';

describe('paging', () => {
  it('should compute the window of a page and clamp the page size', () => {
    expect(pageWindow({ pageNumber: 3, pageSize: 20 })).toEqual({ pageNumber: 3, pageSize: 20, limit: 20, offset: 40 });
    expect(pageWindow({})).toEqual({ pageNumber: 1, pageSize: 10, limit: 10, offset: 0 });
    expect(pageWindow({ pageSize: 5000 }).pageSize).toBe(100);
  });

  it('should describe the page in the shape of the spec', () => {
    expect(paged(['a', 'b'], 21, pageWindow({ pageNumber: 2, pageSize: 10 }))).toEqual({
      data: ['a', 'b'],
      currentPage: 2,
      totalPages: 3,
      totalCount: 21,
      pageSize: 10,
      hasPreviousPage: true,
      hasNextPage: true,
    });
    expect(paged([], 0, pageWindow({}))).toMatchObject({ totalPages: 0, hasPreviousPage: false, hasNextPage: false });
  });

  it('should prefer the advanced search keyword and ignore blanks', () => {
    expect(searchKeyword({ keyword: 'printer', advancedSearch: { keyword: 'scanner' } })).toBe('scanner');
    expect(searchKeyword({ keyword: '  printer ', advancedSearch: { keyword: '  ' } })).toBe('printer');
    expect(searchKeyword({ keyword: '   ' })).toBeUndefined();
  });

  it('should translate allow-listed orders and refuse anything else', () => {
    const columns = { createdOn: 't.created_at', title: 't.title' };
    expect(orderByClause(['createdOn desc', 'TITLE'], columns, 't.created_at desc', 't.id desc')).toBe('t.created_at desc, t.title asc, t.id desc');
    expect(orderByClause(undefined, columns, 't.created_at desc', 't.id desc')).toBe('t.created_at desc, t.id desc');
    // orderBy null arrives as [""] after the schema's coercion: the default order, not a 400.
    expect(orderByClause([''], columns, 't.created_at desc', 't.id desc')).toBe('t.created_at desc, t.id desc');
    expect(orderByClause(['  ', 'title desc'], columns, 't.created_at desc', 't.id desc')).toBe('t.title desc, t.id desc');
    expect(() => orderByClause(['title; drop table users'], columns, 'x', 'y')).toThrow(ValidationFailure);
    expect(() => orderByClause(['title sideways'], columns, 'x', 'y')).toThrow(ValidationFailure);
  });
});
