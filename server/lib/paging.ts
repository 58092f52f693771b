import { Type, type Static, type TSchema } from 'typebox';
import { ValidationFailure } from './errors.ts';

/**
 * The search request of spec §3 (advancedSearch, keyword, pageNumber, pageSize, orderBy,
 * optionally userId, statusId, supportGroupId) and the paged answer every search returns
 * (data, currentPage, totalPages, totalCount, pageSize, hasPreviousPage, hasNextPage).
 */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 10;

export const AdvancedSearch = Type.Object(
  {
    fields: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 })),
    keyword: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  },
  { description: 'Search the keyword in the named fields only' },
);

export const searchRequestProperties = {
  advancedSearch: Type.Optional(Type.Union([AdvancedSearch, Type.Null()])),
  keyword: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  pageNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })),
  orderBy: Type.Optional(
    Type.Union([Type.Array(Type.String({ maxLength: 64 }), { maxItems: 5 }), Type.Null()], {
      description: 'e.g. ["createdOn desc", "title"]',
    }),
  ),
};

export const SearchRequest = Type.Object(searchRequestProperties);
export type SearchRequest = Static<typeof SearchRequest>;

export function PagedResult<T extends TSchema>(item: T, description?: string) {
  return Type.Object(
    {
      data: Type.Array(item),
      currentPage: Type.Integer(),
      totalPages: Type.Integer(),
      totalCount: Type.Integer(),
      pageSize: Type.Integer(),
      hasPreviousPage: Type.Boolean(),
      hasNextPage: Type.Boolean(),
    },
    { description },
  );
}

export interface Paged<T> {
  data: T[];
  currentPage: number;
  totalPages: number;
  totalCount: number;
  pageSize: number;
  hasPreviousPage: boolean;
  hasNextPage: boolean;
}

export interface PageWindow {
  pageNumber: number;
  pageSize: number;
  limit: number;
  offset: number;
}

export function pageWindow(request: Pick<SearchRequest, 'pageNumber' | 'pageSize'>): PageWindow {
  const pageNumber = Math.max(1, request.pageNumber ?? 1);
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, request.pageSize ?? DEFAULT_PAGE_SIZE));
  return { pageNumber, pageSize, limit: pageSize, offset: (pageNumber - 1) * pageSize };
}

export function paged<T>(data: T[], totalCount: number, window: PageWindow): Paged<T> {
  const totalPages = Math.ceil(totalCount / window.pageSize);
  return {
    data,
    currentPage: window.pageNumber,
    totalPages,
    totalCount,
    pageSize: window.pageSize,
    hasPreviousPage: window.pageNumber > 1,
    hasNextPage: window.pageNumber < totalPages,
  };
}

/** The keyword of a request: `advancedSearch.keyword` wins over `keyword`; blank means none. */
export function searchKeyword(request: Pick<SearchRequest, 'keyword' | 'advancedSearch'>): string | undefined {
  for (const candidate of [request.advancedSearch?.keyword, request.keyword]) {
    const keyword = candidate?.trim();
    if (keyword) return keyword;
  }
  return undefined;
}

/**
 * Turns `orderBy` entries ("createdOn desc") into SQL over an allow-list of sortable fields,
 * so no caller text reaches the query. Unknown fields are a 400 naming the allowed ones.
 * `tieBreaker` keeps paging stable when the sort key repeats.
 */
export function orderByClause(orderBy: readonly string[] | null | undefined, columns: Record<string, string>, fallback: string, tieBreaker: string): string {
  // Blank entries say nothing: the schema layer coerces the spec's `orderBy: null` into [""]
  // (Ajv's coerceTypes 'array'), and that must mean "the default order", not a 400.
  const entries = (orderBy ?? []).filter((entry) => entry.trim() !== '');
  if (!entries.length) return `${fallback}, ${tieBreaker}`;
  const parts = entries.map((entry) => {
    const [field, direction = 'asc', ...rest] = entry.trim().split(/\s+/);
    const column = Object.entries(columns).find(([name]) => name.toLowerCase() === field.toLowerCase())?.[1];
    const dir = direction.toLowerCase();
    if (!column || rest.length || (dir !== 'asc' && dir !== 'desc')) {
      throw new ValidationFailure({
        orderBy: [`"${entry}" is not a valid order. Use "<field> [asc|desc]" with one of: ${Object.keys(columns).join(', ')}.`],
      });
    }
    return `${column} ${dir}`;
  });
  return `${parts.join(', ')}, ${tieBreaker}`;
}
