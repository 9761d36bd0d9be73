// The query of GET /v1/passes: paging, the filters, and whether the answer is CSV.
import type { PassFilter } from '../db/passes.js';
import { isCalendarDay } from '../http/calendar.js';
import { type PageQuery, readPage, templateIdOf } from '../http/paging.js';
import { ServiceProblem } from '../../http/problem.js';

/** What `GET /v1/passes` was asked: the filter, the page (for CSV: the start), and the CSV's formula guard. */
export interface PassQuery {
  readonly filter: PassFilter;
  readonly page: PageQuery;
  readonly escapeFormulas: boolean;
}

const PAGING = new Set(['limit', 'after', 'before']);
const FILTERS = new Set(['templateId', 'serialNumber', 'updatedSince']);
/** Most `values.NAME` filters one call may give. */
const MAX_VALUE_FILTERS = 20;
/** Longest serial number or value a filter may give (longer ones match nothing stored by the API). */
const MAX_FILTER_TEXT = 4096;
// ISO 8601 / RFC 3339 date-time with a zone; `+` read as a space (an unencoded `+` in a query string) is put back.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|[+ -]\d{2}:\d{2})$/;

const invalid = (detail: string): ServiceProblem => new ServiceProblem(400, 'invalid-query', detail);

/**
 * Reads the query of `GET /v1/passes`: `limit`, `after`, `before`,
 * `templateId`, `serialNumber`, `updatedSince`, `values.NAME` (and, for CSV,
 * `escapeFormulas`). A parameter it does not know, or one given twice, is
 * a 400 `invalid-query` naming it: a misspelt filter must not widen the list
 * to everything. CSV takes `after` (where to start) but no `limit` or
 * `before`, and needs `templateId`.
 *
 * @example
 * ```ts
 * readPassQuery(new URL('http://x/v1/passes?templateId=3&values.tier=gold'), false).filter;
 * // { templateId: 3, values: [['tier', 'gold']] }
 * ```
 */
export function readPassQuery(url: URL, csv: boolean): PassQuery {
  const seen = new Set<string>();
  const values: [string, string][] = [];
  for (const [name, value] of url.searchParams) {
    if (seen.has(name)) throw invalid(`\`${name}\` is given more than once.`);
    seen.add(name);
    if (name.startsWith('values.')) {
      const placeholder = name.slice('values.'.length);
      if (placeholder === '') throw invalid('`values.` needs a placeholder name: `values.NAME=VALUE`.');
      if (value.length > MAX_FILTER_TEXT) throw invalid(`\`${name}\` is longer than ${MAX_FILTER_TEXT} characters.`);
      // PostgreSQL's text holds no NUL: no pass has one.
      if (value.includes('\u0000')) throw invalid(`\`${name}\` must not hold a NUL character.`);
      values.push([placeholder, value]);
    } else if (!PAGING.has(name) && !FILTERS.has(name) && name !== 'escapeFormulas') {
      throw invalid(`Unknown parameter \`${name}\`: filter with templateId, serialNumber, updatedSince or values.NAME (page with limit, after, before).`);
    }
  }
  if (values.length > MAX_VALUE_FILTERS) throw invalid(`At most ${MAX_VALUE_FILTERS} \`values.NAME\` filters.`);
  if (csv && (seen.has('limit') || seen.has('before')))
    throw invalid('An export (text/csv) is every matching pass: give `after` to start later, no `limit` or `before`.');
  if (!csv && seen.has('escapeFormulas')) throw invalid('`escapeFormulas` is for an export (Accept: text/csv).');
  const escapeText = url.searchParams.get('escapeFormulas');
  if (escapeText !== null && escapeText !== 'true' && escapeText !== 'false') throw invalid('`escapeFormulas` is `true` or `false`.');

  const templateText = url.searchParams.get('templateId');
  const templateId = templateText === null ? undefined : templateIdOf(templateText);
  if (templateText !== null && templateId === undefined) throw invalid('`templateId` must be a template id.');
  if (csv && templateId === undefined) throw invalid('An export (text/csv) needs `templateId`: its placeholders are the columns.');

  const serialNumber = url.searchParams.get('serialNumber') ?? undefined;
  if (serialNumber !== undefined && (serialNumber === '' || serialNumber.length > MAX_FILTER_TEXT || serialNumber.includes('\u0000'))) {
    throw invalid(`\`serialNumber\` must be 1 to ${MAX_FILTER_TEXT} characters.`);
  }
  const updatedText = url.searchParams.get('updatedSince');
  const updatedSince = updatedText === null ? undefined : dateTimeOf(updatedText);
  if (updatedText !== null && updatedSince === undefined) {
    throw invalid('`updatedSince` must be an ISO 8601 date-time with a zone, e.g. `2025-03-01T00:00:00Z` (encode `+` as `%2B`).');
  }
  return {
    filter: {
      ...(templateId === undefined ? {} : { templateId }),
      ...(serialNumber === undefined ? {} : { serialNumber }),
      ...(updatedSince === undefined ? {} : { updatedSince }),
      ...(values.length === 0 ? {} : { values }),
    },
    page: readPage(url, 'after'),
    escapeFormulas: escapeText === 'true',
  };
}

/** A date-time with a zone as a `Date`, or `undefined` (a day that does not exist, no zone, junk). */
function dateTimeOf(text: string): Date | undefined {
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [, , month, day, hour, minute, second] = match.map(Number) as number[];
  if (month! < 1 || month! > 12 || day! < 1 || day! > 31 || hour! > 23 || minute! > 59 || (second ?? 0) > 59) return undefined;
  // A space where the offset's sign is: the `+` a query string decoded.
  const date = new Date(text.replace(/ (\d{2}:\d{2})$/, '+$1').replace(/^(.{10}) /, '$1T'));
  // Years 1 to 9999 once moved to UTC, as PostgreSQL's timestamps take them.
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999) return undefined;
  // 2025-02-30 rolls over in Date: refuse a day the month does not have.
  return isCalendarDay(text) ? date : undefined;
}

/**
 * Whether an `Accept` header asks for CSV: `text/csv` listed with a
 * quality above JSON's (or JSON not listed). `*` and no header are JSON.
 *
 * @example
 * ```ts
 * wantsCsv('text/csv'); // true
 * wantsCsv('application/json, text/csv;q=0.5'); // false
 * ```
 */
export function wantsCsv(accept: string | null): boolean {
  if (accept === null) return false;
  let csv = 0;
  let json = 0;
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    if (!Number.isFinite(quality)) continue;
    if (type === 'text/csv') csv = Math.max(csv, quality);
    else if (type === 'application/json') json = Math.max(json, quality);
  }
  return csv > 0 && csv > json;
}
