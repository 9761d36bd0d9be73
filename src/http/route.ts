import { compilePath, matchPath } from './path-pattern.js';

/** A request path that matched one of the two routes; segments still percent-encoded. */
export type RawRoute =
  | { readonly kind: 'pass'; readonly passTypeIdentifier: string; readonly serialNumber: string }
  | { readonly kind: 'template'; readonly id: string };

const passJson = compilePath('/v1/passes/{passTypeIdentifier}/{serialNumber}/passjson');
const template = compilePath('/v1/templates/{id}');

/**
 * The path of an absolute URL as a `Request` carries it: from the first `/`
 * after the authority up to `?` or `#`, still percent-encoded.
 *
 * @example
 * ```ts
 * pathOf('https://example.com/v1/templates/1?x=1'); // '/v1/templates/1'
 * ```
 */
export function pathOf(url: string): string {
  const scheme = url.indexOf('://');
  const start = url.indexOf('/', scheme === -1 ? 0 : scheme + 3);
  if (start === -1) return '/';
  let end = url.indexOf('?', start);
  if (end === -1) end = url.length;
  const hash = url.indexOf('#', start);
  if (hash !== -1 && hash < end) end = hash;
  return url.slice(start, end);
}

/**
 * `basePath` as the handler compares it: `''` for none, otherwise one leading
 * slash and no trailing one (`'api/'`, `'/api'` and `'/api//'` are all `'/api'`).
 *
 * @example
 * ```ts
 * normalizeBasePath('api/'); // '/api'
 * ```
 */
export function normalizeBasePath(basePath: string): string {
  let start = 0;
  let end = basePath.length;
  while (start < end && basePath.charCodeAt(start) === 0x2f) start++;
  while (end > start && basePath.charCodeAt(end - 1) === 0x2f) end--;
  return start === end ? '' : '/' + basePath.slice(start, end);
}

/**
 * Matches a path (below the base path) against the two routes, comparing the
 * literal parts as they are. Parameters are non-empty and never contain a raw
 * `/`; `.` and `..` are not resolved here, they are values like any other.
 *
 * @example
 * ```ts
 * matchRoute('/v1/templates/7'); // { kind: 'template', id: '7' }
 * ```
 */
export function matchRoute(path: string): RawRoute | undefined {
  const segments = path.split('/');
  const pass = matchPath(passJson, segments);
  if (pass !== undefined) return { kind: 'pass', ...pass };
  const found = matchPath(template, segments);
  return found === undefined ? undefined : { kind: 'template', ...found };
}

/**
 * Percent-decodes one path segment, exactly once; `undefined` when the
 * encoding is invalid (a `%` not followed by two hex digits, or bytes that
 * are not UTF-8).
 *
 * @example
 * ```ts
 * decodeSegment('a%2Fb'); // 'a/b'
 * decodeSegment('%252F'); // '%2F'
 * ```
 */
export function decodeSegment(segment: string): string | undefined {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * A template id: decimal digits, no sign, exponent, fraction or leading zero,
 * from 1 to `Number.MAX_SAFE_INTEGER`; `undefined` for anything else.
 *
 * @example
 * ```ts
 * parseTemplateId('42'); // 42
 * parseTemplateId('1e3'); // undefined
 * ```
 */
export function parseTemplateId(text: string): number | undefined {
  // 9007199254740991 has 16 digits; a longer string is out of range whatever it holds.
  if (text.length === 0 || text.length > 16 || text.charCodeAt(0) === 0x30) return undefined;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x30 || code > 0x39) return undefined;
  }
  const id = Number(text);
  return id <= Number.MAX_SAFE_INTEGER ? id : undefined;
}
