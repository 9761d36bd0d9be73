// GET /v1/passes with Accept: text/csv — every matching pass as RFC 4180 CSV,
// read a keyset page at a time and written as the client takes it.
import type { PassFilter, PassRecord } from '../db/passes.js';
import type { SqlQueryable } from '../db/sql.js';
import * as store from '../db/store.js';
import type { PassLinks } from './resources.js';

/** Passes read per query while exporting: memory holds one such page, whatever the export's size. */
export const EXPORT_PAGE_SIZE = 1000;

const LINKS = ['self', 'passjson', 'pkpass', 'google'] as const;

/** What {@link exportCsv} writes. */
export interface CsvExport {
  readonly db: SqlQueryable;
  readonly filter: PassFilter;
  /** Start after this cursor (`seq`). */
  readonly after: number | undefined;
  /** The template's placeholders: one column each, in this order. */
  readonly placeholders: readonly string[];
  /** Prefix `'` to cells that start with = + - @ (a spreadsheet would run them as formulas). */
  readonly escapeFormulas: boolean;
  readonly links: (record: PassRecord) => PassLinks;
}

const encoder = new TextEncoder();

/**
 * The CSV answer: a header row (`serialNumber`, the placeholders,
 * `version`, `updated`, `links.self`, `links.passjson`, `links.pkpass`, and
 * `links.google` with Google Wallet), then a row per pass in creation
 * order, CRLF after each. Each page of {@link EXPORT_PAGE_SIZE} passes is
 * read only when the client has taken the previous one (the stream's
 * `pull`), so memory stays flat for any number of passes. A value that is
 * not text is written as its JSON; a missing one as an empty cell.
 *
 * @example
 * ```ts
 * return exportCsv({ db, filter: { templateId: 3 }, after: undefined, placeholders: ['name'], escapeFormulas: false, links });
 * ```
 */
export async function exportCsv(options: CsvExport): Promise<Response> {
  const { db, filter, placeholders, escapeFormulas, links } = options;
  let cursor = options.after ?? 0;
  let header: (typeof LINKS)[number][] | undefined;
  const cell = (text: string, userData: boolean): string => csvCell(escapeFormulas && userData ? guardFormula(text) : text);
  const read = (): Promise<PassRecord[]> => store.listPasses(db, { limit: EXPORT_PAGE_SIZE, direction: 'after', cursor }, filter);
  // The first page before the answer starts: a database that cannot be reached is still a 503, not a cut transfer.
  let first: PassRecord[] | undefined = await read();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const items = first ?? (await read());
        first = undefined;
        let text = '';
        if (header === undefined) {
          // The link columns of the first pass (Google's only when the service has it): the same for every pass.
          const one = items[0];
          header = one === undefined ? ['self', 'passjson', 'pkpass'] : LINKS.filter((name) => links(one)[name] !== undefined);
          text += `${['serialNumber', ...placeholders, 'version', 'updated', ...header.map((name) => `links.${name}`)].map((name) => cell(name, true)).join(',')}\r\n`;
        }
        for (const item of items) {
          const itemLinks = links(item);
          const row = [
            cell(item.serialNumber, true),
            ...placeholders.map((name) => cell(valueText(item.values[name]), true)),
            String(item.version),
            item.updated.toISOString(),
            ...header.map((name) => cell(itemLinks[name] ?? '', false)),
          ];
          text += `${row.join(',')}\r\n`;
        }
        if (text !== '') controller.enqueue(encoder.encode(text));
        const last = items[items.length - 1];
        if (items.length < EXPORT_PAGE_SIZE || last === undefined) controller.close();
        else cursor = last.seq;
      },
    },
    // One page at a time: the next is read when the listener has written this one.
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/csv; charset=utf-8; header=present',
      'content-disposition': 'attachment; filename="passes.csv"',
      'cache-control': 'no-store',
    },
  });
}

/** A value as a cell's text: text as it is, anything else as JSON, nothing as empty. */
function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A cell as RFC 4180 writes it: quoted (and its quotes doubled) when it
 * holds a comma, a quote, CR or LF, or starts or ends with a space.
 *
 * @example
 * ```ts
 * csvCell('say "hi", then go'); // '"say ""hi"", then go"'
 * ```
 */
export function csvCell(text: string): string {
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** OWASP's CSV-injection guard: a cell a spreadsheet would read as a formula gets a leading apostrophe. */
function guardFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
