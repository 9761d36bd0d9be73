/**
 * The first rows of a CSV text (RFC 4180: quoted fields with doubled quotes,
 * commas and line breaks inside quotes, CRLF or LF), for the import preview.
 * The service parses the whole file again; this reads only `limit` records.
 *
 * @example
 * ```ts
 * csvRows('a,b\n"1,2",3\n', 10); // [['a', 'b'], ['1,2', '3']]
 * ```
 */
export function csvRows(text: string, limit: number): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRow = (): void => {
    row.push(field);
    field = '';
    // A blank line is no record.
    if (!(row.length === 1 && row[0] === '')) rows.push(row);
    row = [];
  };
  while (index < text.length && rows.length < limit) {
    const char = text[index] as string;
    if (quoted) {
      if (char === '"') {
        if (text[index + 1] === '"') {
          field += '"';
          index++;
        } else quoted = false;
      } else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++;
      endRow();
    } else field += char;
    index++;
  }
  if (rows.length < limit && (field !== '' || row.length > 0)) endRow();
  return rows;
}
