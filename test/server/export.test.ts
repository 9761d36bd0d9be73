// GET /v1/passes with Accept: text/csv: every matching pass as RFC 4180 CSV
// (quoted commas, quotes and line breaks; CRLF), the placeholders as
// columns, version, updated and the links; more than one page of 1,000
// streamed in seq order; templateId required; the formula guard on request.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const TEMPLATE = {
  name: 'Export',
  formatVersion: 1,
  passType: 'pass.com.example.export',
  description: { generic: { primaryFields: [{ key: 'n', value: '${name}' }], secondaryFields: [{ key: 'x', value: '${note}' }] } },
  placeholder: ['name', 'note'],
};

/** RFC 4180 read back: rows of cells (quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += char;
  }
  expect([cell, row]).toEqual(['', []]);
  return rows;
}

for (const engine of ENGINES) {
  describe(`export on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    let templateId: number;
    let bulkId: number;

    const exportCsv = async (query: string) => service.call('GET', `/v1/passes?${query}`, undefined, { accept: 'text/csv' });

    beforeAll(async () => {
      database = await engine.open();
      service = await startService(database);
      templateId = (await service.call('POST', '/v1/templates', TEMPLATE)).body.id;
      const values = [
        { name: 'Plain', note: 'nothing special' },
        { name: 'Comma, Quote "Q"', note: 'line one\r\nline two\nline three' },
        { name: '=HYPERLINK("x")', note: '-5' },
        { name: 'Spaced', note: ' spaced ' },
      ];
      for (const [index, value] of values.entries()) {
        expect((await service.call('POST', `/v1/templates/${templateId}/passes`, { serialNumber: `E-${index + 1}`, values: value })).status).toBe(201);
      }
      // Over one page of 1,000: made with SQL (a pass as the service stores it, with its token).
      bulkId = (await service.call('POST', '/v1/templates', { ...TEMPLATE, name: 'Bulk' })).body.id;
      await database.db.query(
        `insert into passmint_passes (pass_type_identifier, serial_number, template_id, pass_values, pass)
         select 'pass.com.example.export', 'B-' || lpad(i::text, 4, '0'), $1, json_build_object('name', 'N' || i, 'note', 'n'),
                json_build_object('serialNumber', 'B-' || lpad(i::text, 4, '0'), 'authenticationToken', 'token-' || i)
           from generate_series(1, 2345) i`,
        [bulkId],
      );
    });
    afterAll(async () => {
      await service?.close();
      await database?.dispose();
    });

    test('header, RFC 4180 quoting, CRLF, the values as stored, the links', async () => {
      const answer = await exportCsv(`templateId=${templateId}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^text\/csv/);
      const text = answer.body as string;
      expect(text.endsWith('\r\n')).toBe(true);
      const rows = parseCsv(text);
      expect(rows[0]).toEqual(['serialNumber', 'name', 'note', 'version', 'updated', 'links.self', 'links.passjson', 'links.pkpass']);
      expect(rows.length).toBe(5);
      expect(rows[2]!.slice(0, 4)).toEqual(['E-2', 'Comma, Quote "Q"', 'line one\r\nline two\nline three', '1']);
      expect(text).toContain('"Comma, Quote ""Q"""');
      // No guard unless asked: the file holds the values as stored (an export can be imported again).
      expect(rows[3]!.slice(0, 3)).toEqual(['E-3', '=HYPERLINK("x")', '-5']);
      expect(rows[4]!.slice(0, 3)).toEqual(['E-4', 'Spaced', ' spaced ']);
      expect(text).toContain('" spaced "');
      const pass = (await service.call('GET', '/v1/passes/pass.com.example.export/E-1')).body;
      expect(rows[1]).toEqual(['E-1', 'Plain', 'nothing special', '1', pass.updated, pass.links.self, pass.links.passjson, pass.links.pkpass]);
      expect(pass.links.pkpass).toContain('?token=');
    });

    test('escapeFormulas=true guards cells a spreadsheet would run', async () => {
      const rows = parseCsv((await exportCsv(`templateId=${templateId}&escapeFormulas=true`)).body as string);
      expect(rows[3]!.slice(0, 3)).toEqual(['E-3', '\'=HYPERLINK("x")', "'-5"]);
      expect(rows[1]!.slice(0, 3)).toEqual(['E-1', 'Plain', 'nothing special']);
    });

    test('more than one page is streamed, every pass once, in order; filters apply', async () => {
      const rows = parseCsv((await exportCsv(`templateId=${bulkId}`)).body as string);
      expect(rows.length).toBe(2346);
      const serials = rows.slice(1).map((row) => row[0]);
      expect(new Set(serials).size).toBe(2345);
      expect(serials.slice(0, 2)).toEqual(['B-0001', 'B-0002']);
      expect(serials.at(-1)).toBe('B-2345');
      expect(rows[1001]![7]).toContain('token=token-1001');
      const some = parseCsv((await exportCsv(`templateId=${bulkId}&values.name=N1500`)).body as string);
      expect(some.map((row) => row[0])).toEqual(['serialNumber', 'B-1500']);
    });

    test('templateId required; no limit or before; unknown template 404', async () => {
      for (const [query, status, code] of [
        ['', 400, 'invalid-query'],
        [`templateId=${templateId}&limit=10`, 400, 'invalid-query'],
        [`templateId=${templateId}&before=5`, 400, 'invalid-query'],
        [`templateId=${templateId}&colour=red`, 400, 'invalid-query'],
        ['templateId=999999', 404, 'template-not-found'],
      ] as const) {
        const answer = await exportCsv(query);
        expect([query, answer.status, answer.body.code]).toEqual([query, status, code]);
      }
      // JSON preferred over CSV: a page.
      const json = await service.call('GET', `/v1/passes?templateId=${templateId}`, undefined, { accept: 'application/json, text/csv;q=0.5' });
      expect(json.body.items.length).toBe(4);
    });
  });
}
