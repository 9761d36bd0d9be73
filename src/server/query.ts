import { ServiceProblem } from './problem.js';

const cursorPattern = /^(?:0|[1-9]\d{0,14})$/;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_INT4 = 2_147_483_647;

/** `?limit=` (1–100, default 50) and a numeric cursor (`?after=` or `?before=`). */
export function readPage(url: URL, cursorName: 'after' | 'before'): { limit: number; cursor: number | undefined } {
  const limitText = url.searchParams.get('limit');
  let limit = 50;
  if (limitText !== null) {
    limit = /^\d{1,3}$/.test(limitText) ? Number(limitText) : 0;
    if (limit < 1 || limit > 100) throw new ServiceProblem(400, 'invalid-query', '`limit` must be an integer from 1 to 100.');
  }
  const cursorText = url.searchParams.get(cursorName);
  if (cursorText !== null && !cursorPattern.test(cursorText)) {
    throw new ServiceProblem(400, 'invalid-query', `\`${cursorName}\` must be the cursor a previous page gave.`);
  }
  return { limit, cursor: cursorText === null ? undefined : Number(cursorText) };
}

/** A page: the items, and the cursor of the next page (`null` on the last). */
export function page<TItem>(items: readonly TItem[], limit: number, cursorOf: (item: TItem) => number, map: (item: TItem) => unknown): unknown {
  const last = items[items.length - 1];
  return { items: items.map(map), next: items.length === limit && last !== undefined ? String(cursorOf(last)) : null };
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
