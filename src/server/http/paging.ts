import { ServiceProblem } from '../../http/problem.js';

const cursorPattern = /^(?:0|[1-9]\d{0,14})$/;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_INT4 = 2_147_483_647;

/**
 * One page of a list as asked: `?limit=` (1–100, default 50) and at most one
 * cursor. `after`: the items above the cursor, ascending (oldest first);
 * `before`: the items below it, descending (newest first). Without a cursor,
 * the list's own direction from its start.
 */
export interface PageQuery {
  readonly limit: number;
  readonly direction: 'after' | 'before';
  readonly cursor: number | undefined;
}

/**
 * Reads `?limit=`, `?after=` and `?before=`; every list takes both cursors
 * (and the API description should list both on every list). A cursor that
 * is not one a page gave (not a whole number), or both at once, is a 400
 * `invalid-query`.
 */
export function readPage(url: URL, defaultDirection: 'after' | 'before'): PageQuery {
  const limitText = url.searchParams.get('limit');
  let limit = 50;
  if (limitText !== null) {
    limit = /^\d{1,3}$/.test(limitText) ? Number(limitText) : 0;
    if (limit < 1 || limit > 100) throw new ServiceProblem(400, 'invalid-query', '`limit` must be an integer from 1 to 100.');
  }
  const after = url.searchParams.get('after');
  const before = url.searchParams.get('before');
  if (after !== null && before !== null) throw new ServiceProblem(400, 'invalid-query', 'Give `after` or `before`, not both.');
  const direction = after !== null ? 'after' : before !== null ? 'before' : defaultDirection;
  const cursorText = after ?? before;
  if (cursorText !== null && !cursorPattern.test(cursorText)) {
    throw new ServiceProblem(400, 'invalid-query', `\`${direction}\` must be the cursor a previous page gave.`);
  }
  return { limit, direction, cursor: cursorText === null ? undefined : Number(cursorText) };
}

/**
 * The SQL of a keyset page over a numeric `column`, its parameters numbered
 * from `first`: `column > $1 order by column limit $2` (or `<`, descending).
 */
export function keysetPage(column: string, query: PageQuery, first: number): { readonly sql: string; readonly params: readonly [number, number] } {
  const after = query.direction === 'after';
  const cursor = query.cursor ?? (after ? 0 : Number.MAX_SAFE_INTEGER);
  return {
    sql: `${column} ${after ? '>' : '<'} $${first}::bigint order by ${column} ${after ? 'asc' : 'desc'} limit $${first + 1}`,
    params: [cursor, query.limit],
  };
}

/** A page: the items, and the cursor of the next one in the same direction (`null` on the last). */
export function page<TItem>(
  items: readonly TItem[],
  query: PageQuery,
  cursorOf: (item: TItem) => number,
  map: (item: TItem) => unknown,
): { items: unknown[]; next: string | null } {
  const last = items[items.length - 1];
  return { items: items.map(map), next: items.length === query.limit && last !== undefined ? String(cursorOf(last)) : null };
}

/** A template id that can exist (a positive 32-bit integer), or `undefined`. */
export function templateIdOf(text: string): number | undefined {
  if (!/^[1-9]\d{0,9}$/.test(text)) return undefined;
  const id = Number(text);
  return id <= MAX_INT4 ? id : undefined;
}

/** Whether a path parameter can be a webhook or event id (a UUID); anything else is simply not found. */
export function isUuid(text: string): boolean {
  return uuidPattern.test(text);
}
