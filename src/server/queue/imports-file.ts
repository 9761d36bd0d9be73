// An import's file: CSV (RFC 4180, read by csv-parse) or JSON lines, read
// as a stream of records — when it is uploaded (checked and stored chunk by
// chunk before the job is queued) and again by the job (from the stored
// chunks, from its cursor on). Neither holds more than a chunk and a record.
import { Readable, type Duplex } from 'node:stream';
import type { Options as CsvOptions } from 'csv-parse';
import { closestName } from '../../suggest.js';
import type { JsonObject } from '../../types.js';
import { addJobInput } from '../db/job-inputs.js';
import { importPeer } from '../db/pglite.js';
import type { SqlQueryable } from '../db/sql.js';
import { ServiceProblem } from '../../http/problem.js';
import { serialNumberProblem } from '../http/serial-number.js';
import { yieldToRequests } from './lifecycle.js';

/** The two formats an import reads: `text/csv` and `application/x-ndjson`. */
export type ImportFormat = 'csv' | 'ndjson';

/** The column that names a pass's serial number (optional); every other column is a placeholder. */
export const SERIAL_COLUMN = 'serialNumber';

/** Most bytes of one record (a CSV record, a JSON line): past it the file is refused. */
const MAX_RECORD_BYTES = 1024 * 1024;

/** Bytes of one stored chunk of an upload. */
const CHUNK_BYTES = 512 * 1024;

/** One record of an import as the job makes a pass of it. */
export interface ImportRecord {
  /** Its number in the file, from 1 (a CSV header is not one; a line break inside quotes does not start one). */
  readonly row: number;
  readonly values: JsonObject;
  /** The serial number it names, if any. */
  readonly serialNumber?: string | undefined;
  /** Why no pass can be made of it, found before rendering (a CSV record with another number of fields, a bad serial number). */
  readonly problem?: ServiceProblem | undefined;
}

/** A record as read, before it is checked: a CSV record's fields, or a JSON line's value. */
interface RawRecord {
  /** A JSON line's number in the file (for a message). */
  readonly line?: number | undefined;
  readonly fields: readonly string[] | unknown;
}

/** A file that is not CSV or JSON lines, at a line. */
class ImportSyntaxError extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(message);
    this.line = line;
  }
}

const invalidImport = (detail: string): ServiceProblem => new ServiceProblem(422, 'invalid-import', detail);

/** csv-parse's `parse` (a Transform stream: bytes in, records out), typed as much as used here (a type import only: the package is loaded when a CSV arrives). */
type CsvParse = (options: CsvOptions) => Duplex;

let csvParse: Promise<CsvParse> | undefined;

/** csv-parse, an optional peer dependency of passmint/server: a 415 naming it when it is not installed. */
async function loadCsvParse(): Promise<CsvParse> {
  csvParse ??= importPeer<{ parse: CsvParse }>('csv-parse').then((module) => module.parse);
  try {
    return await csvParse;
  } catch (error) {
    csvParse = undefined;
    if ((error as { code?: unknown }).code === 'missing-package') {
      throw new ServiceProblem(
        415,
        'unsupported-media-type',
        'CSV imports need the package csv-parse beside the service (npm install csv-parse, then restart the service); JSON lines need nothing.',
      );
    }
    throw error;
  }
}

/** Records of an upload checked between two turns of the event loop given to live requests. */
const CHECKS_BETWEEN_YIELDS = 500;

/** Bytes the CSV parser is given at a time: it parses what it is given in one go, which live requests wait for (about 0.3 ms here). */
const PARSE_BYTES = 16 * 1024;

/** The chunks of `source` in pieces of at most {@link PARSE_BYTES}. */
async function* pieces(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    for (let offset = 0; offset < chunk.byteLength; offset += PARSE_BYTES) yield chunk.subarray(offset, offset + PARSE_BYTES);
  }
}

/** CSV records (arrays of fields, the header first), RFC 4180: quoted fields with commas, quotes and line breaks, CRLF or LF, a BOM. */
async function* csvRecords(source: AsyncIterable<Uint8Array>): AsyncGenerator<RawRecord> {
  const parse = await loadCsvParse();
  const input = Readable.from(pieces(source), { objectMode: false });
  // No `info` per record: a CSV record's line is never asked for (a syntax error carries its own).
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_RECORD_BYTES });
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  try {
    for await (const record of parser as AsyncIterable<string[]>) yield { fields: record };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('CSV_') || code === 'INVALID_OPENING_QUOTE')) {
      const line = Number((error as { lines?: unknown }).lines);
      throw new ImportSyntaxError(Number.isFinite(line) ? line : 0, (error as Error).message.replace(/^[^:]*: /, ''));
    }
    throw error;
  } finally {
    input.destroy();
  }
}

/** JSON lines: one JSON value per line (LF or CRLF), blank lines skipped. */
async function* jsonLines(source: AsyncIterable<Uint8Array>): AsyncGenerator<RawRecord> {
  const decoder = new TextDecoder();
  let pending = '';
  let line = 0;
  const parseLine = (text: string): RawRecord | undefined => {
    line++;
    const trimmed = (line === 1 ? text.replace(/^\uFEFF/, '') : text).trim();
    if (trimmed === '') return undefined;
    try {
      return { line, fields: JSON.parse(trimmed) as unknown };
    } catch {
      throw new ImportSyntaxError(line, 'the line is not JSON');
    }
  };
  for await (const chunk of source) {
    pending += decoder.decode(chunk, { stream: true });
    let end = pending.indexOf('\n');
    while (end >= 0) {
      const record = parseLine(pending.slice(0, end));
      if (record !== undefined) yield record;
      pending = pending.slice(end + 1);
      end = pending.indexOf('\n');
    }
    if (pending.length > MAX_RECORD_BYTES) throw new ImportSyntaxError(line + 1, `the line is longer than ${MAX_RECORD_BYTES} characters`);
  }
  pending += decoder.decode();
  const last = parseLine(pending);
  if (last !== undefined) yield last;
}

/**
 * The columns of a CSV header checked against the template's placeholders:
 * each a placeholder or `serialNumber`, each once, every placeholder there.
 * A 422 `invalid-import` naming the column otherwise.
 *
 * @example
 * ```ts
 * checkColumns(['name', 'serialNumber'], ['name']); // ['name', 'serialNumber']
 * ```
 */
export function checkColumns(header: readonly string[], placeholders: readonly string[]): string[] {
  const allowed = new Set([...placeholders, SERIAL_COLUMN]);
  const seen = new Set<string>();
  for (const column of header) {
    if (!allowed.has(column)) {
      const guess = closestName(column, [...allowed]);
      throw invalidImport(
        `Unknown column ${JSON.stringify(column)} in the header${guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`}: the columns are the template's placeholders (${placeholders.map((name) => JSON.stringify(name)).join(', ') || 'none'}) and "${SERIAL_COLUMN}".`,
      );
    }
    if (seen.has(column)) throw invalidImport(`The column ${JSON.stringify(column)} appears twice in the header.`);
    seen.add(column);
  }
  const missing = placeholders.filter((name) => !seen.has(name));
  if (missing.length > 0)
    throw invalidImport(
      `The header has no column for the placeholder${missing.length > 1 ? 's' : ''} ${missing.map((name) => JSON.stringify(name)).join(', ')}.`,
    );
  return [...header];
}

/** A JSON line's keys checked as a header's columns are (a key may be left out: the value is then missing, as in a create). */
function checkKeys(value: unknown, line: number, allowed: ReadonlySet<string>, placeholders: readonly string[]): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ImportSyntaxError(line, 'each line is a JSON object of values');
  for (const key of Object.keys(value)) {
    if (!allowed.has(key)) {
      throw invalidImport(
        `Line ${line}: unknown key ${JSON.stringify(key)}: the keys are the template's placeholders (${placeholders.map((name) => JSON.stringify(name)).join(', ') || 'none'}) and "${SERIAL_COLUMN}".`,
      );
    }
  }
}

/** A raw record as a record of the import (`columns`: a CSV file's header). */
function toRecord(raw: RawRecord, row: number, format: ImportFormat, columns: readonly string[]): ImportRecord {
  let values: Record<string, unknown>;
  let serialNumber: unknown;
  if (format === 'csv') {
    const fields = raw.fields as readonly string[];
    if (fields.length !== columns.length) {
      return {
        row,
        values: {},
        problem: new ServiceProblem(
          422,
          'invalid-body',
          `Row ${row} has ${fields.length} field${fields.length === 1 ? '' : 's'}; the header has ${columns.length}.`,
        ),
      };
    }
    values = {};
    columns.forEach((column, index) => {
      if (column === SERIAL_COLUMN) serialNumber = fields[index] === '' ? undefined : fields[index];
      else values[column] = fields[index];
    });
  } else {
    const { [SERIAL_COLUMN]: serial, ...rest } = raw.fields as Record<string, unknown>;
    values = rest;
    serialNumber = serial;
  }
  // Values that cannot be stored (NUL, a lone surrogate) are the pass builder's to refuse, as for a create: that row's problem.
  const problem = serialNumberProblem(serialNumber);
  return {
    row,
    values: values as JsonObject,
    ...(problem === undefined ? { serialNumber: serialNumber as string | undefined } : { problem }),
  };
}

/**
 * The records of a stored import (its header read and skipped), from record
 * `after` + 1 on.
 *
 * @example
 * ```ts
 * for await (const record of importRecords(jobInput(db, seq), 'csv', ['name'], 0)) …
 * ```
 */
export async function* importRecords(
  source: AsyncIterable<Uint8Array>,
  format: ImportFormat,
  columns: readonly string[],
  after: number,
): AsyncGenerator<ImportRecord> {
  let row = 0;
  let header = format === 'csv';
  for await (const raw of format === 'csv' ? csvRecords(source) : jsonLines(source)) {
    if (header) {
      header = false;
      continue;
    }
    row++;
    if (row > after) yield toRecord(raw, row, format, columns);
  }
}

/** What an upload was found to be: its records and (CSV) its header's columns. */
export interface StoredUpload {
  readonly rows: number;
  readonly columns: readonly string[];
}

/** Options of {@link storeUpload}. */
export interface UploadOptions {
  readonly jobSeq: number;
  readonly format: ImportFormat;
  readonly placeholders: readonly string[];
  readonly maxBytes: number;
  readonly maxRows: number;
}

/**
 * Reads an import's body, stores it in chunks as it arrives (so it is kept
 * before the job is queued) and checks it on the way: UTF-8, CSV or JSON
 * lines throughout, the header's columns (or each line's keys), at most
 * `maxBytes` and `maxRows`. A problem (422 naming the line or column, 413)
 * otherwise; the caller then drops what was stored.
 *
 * @example
 * ```ts
 * const { rows, columns } = await storeUpload(db, request.body, { jobSeq, format: 'csv', placeholders: ['name'], maxBytes, maxRows });
 * ```
 */
export async function storeUpload(sql: SqlQueryable, body: ReadableStream<Uint8Array> | null, options: UploadOptions): Promise<StoredUpload> {
  const { format, placeholders, maxBytes, maxRows } = options;
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let n = 0;
  let bytes = 0;
  async function* stored(): AsyncGenerator<Uint8Array> {
    if (body === null) return;
    const reader = body.getReader();
    const parts: Uint8Array[] = [];
    let held = 0;
    const flush = async (): Promise<void> => {
      if (held === 0) return;
      const chunk = new Uint8Array(held);
      let offset = 0;
      for (const part of parts) {
        chunk.set(part, offset);
        offset += part.byteLength;
      }
      parts.length = 0;
      held = 0;
      await addJobInput(sql, options.jobSeq, n++, chunk);
    };
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        if (bytes > maxBytes) throw new ServiceProblem(413, 'body-too-large', `An import is at most ${maxBytes} bytes (limit maxImportBytes).`);
        try {
          utf8.decode(value, { stream: true });
        } catch {
          throw invalidImport('The body is not UTF-8 text.');
        }
        parts.push(value);
        held += value.byteLength;
        if (held >= CHUNK_BYTES) await flush();
        yield value;
      }
      try {
        utf8.decode();
      } catch {
        throw invalidImport('The body is not UTF-8 text.');
      }
      await flush();
    } finally {
      reader.cancel().catch(() => undefined);
    }
  }

  const allowed = new Set([...placeholders, SERIAL_COLUMN]);
  let columns: string[] | undefined;
  let rows = 0;
  try {
    for await (const raw of format === 'csv' ? csvRecords(stored()) : jsonLines(stored())) {
      if (format === 'csv' && columns === undefined) {
        columns = checkColumns(raw.fields as string[], placeholders);
        continue;
      }
      if (format === 'ndjson') checkKeys(raw.fields, raw.line ?? 0, allowed, placeholders);
      rows++;
      // The whole upload may be buffered already: its records are checked a few at a time, live requests going first in between.
      if (rows % CHECKS_BETWEEN_YIELDS === 0) await yieldToRequests();
      if (rows > maxRows) throw new ServiceProblem(413, 'too-many-rows', `An import has at most ${maxRows} rows (limit maxImportRows).`);
    }
  } catch (error) {
    if (error instanceof ImportSyntaxError) {
      throw invalidImport(`Line ${error.line}: ${format === 'csv' ? 'not CSV' : 'not JSON lines'}: ${error.message}.`);
    }
    throw error;
  }
  if (format === 'csv' && columns === undefined) throw invalidImport('The body is empty: a CSV import starts with a header row naming its columns.');
  return { rows, columns: columns ?? [] };
}
