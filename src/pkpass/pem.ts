/**
 * One PEM block: its label (`CERTIFICATE`, `PRIVATE KEY` …), RFC 1421 headers
 * (`Proc-Type`, `DEK-Info` of legacy encrypted keys) and decoded bytes.
 *
 * @example
 * ```ts
 * const block: PemBlock = { label: 'CERTIFICATE', headers: {}, bytes: der };
 * ```
 */
export interface PemBlock {
  readonly label: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly bytes: Uint8Array;
}

const LABEL = /^-----BEGIN ([A-Z0-9 ]{1,64})-----/;
const HEADER = /^([A-Za-z-]{1,64}):[ \t]*(.*)$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The PEM blocks in some text, in order; a block whose body is not base64 is
 * left out. Linear in the text: reading stops at a block without its end line.
 *
 * @example
 * ```ts
 * readPem(pemText)[0]?.label; // 'CERTIFICATE'
 * ```
 */
export function readPem(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  for (let begin = text.indexOf('-----BEGIN '); begin >= 0; begin = text.indexOf('-----BEGIN ', begin + 1)) {
    const label = LABEL.exec(text.slice(begin, begin + 80))?.[1];
    if (label === undefined) continue;
    const bodyStart = begin + label.length + 16;
    const end = text.indexOf(`-----END ${label}-----`, bodyStart);
    if (end < 0) break;
    begin = end;
    const lines = text
      .slice(bodyStart, end)
      .replace(/^\r?\n/, '')
      .split(/\r?\n/);
    const headers: Record<string, string> = Object.create(null) as Record<string, string>;
    let index = 0;
    // RFC 1421 headers come first and end with an empty line.
    if (HEADER.test(lines[0] ?? '')) {
      for (; index < lines.length && (lines[index] ?? '').trim() !== ''; index++) {
        const header = HEADER.exec(lines[index] as string);
        if (header !== null) headers[header[1] as string] = (header[2] as string).trim();
      }
    }
    const body = lines.slice(index).join('').replace(/\s+/g, '');
    if (!BASE64.test(body) || body.length % 4 === 1) continue;
    let binary: string;
    try {
      binary = atob(body);
    } catch {
      continue;
    }
    const bytes = new Uint8Array(binary.length);
    for (let position = 0; position < binary.length; position++) bytes[position] = binary.charCodeAt(position);
    blocks.push({ label, headers, bytes });
  }
  return blocks;
}

const decoder = new TextDecoder('latin1');

/**
 * The text of bytes that hold PEM (a `.pem` file read as bytes), or `undefined` for binary (DER) bytes.
 *
 * @example
 * ```ts
 * pemText(readFileSync('certificate.pem')); // '-----BEGIN CERTIFICATE-----…'
 * ```
 */
export function pemText(input: string | Uint8Array): string | undefined {
  if (typeof input === 'string') return input;
  // DER starts with a SEQUENCE tag (0x30); PEM with text, usually "-----BEGIN".
  let start = 0;
  while (start < input.length && (input[start] === 0x20 || input[start] === 0x0a || input[start] === 0x0d || input[start] === 0x09)) start++;
  if (input[start] === 0x30 || start >= input.length) return undefined;
  const text = decoder.decode(input);
  return text.includes('-----BEGIN ') ? text : undefined;
}
