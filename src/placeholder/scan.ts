import type { Issue } from '../issues.js';

/** A run of literal text inside a scanned string. */
export interface TextSegment {
  readonly type: 'text';
  readonly value: string;
  /** Index of the segment's first character in the scanned string. */
  readonly offset: number;
}

/** One well-formed `${name}`. */
export interface PlaceholderSegment {
  readonly type: 'placeholder';
  readonly name: string;
  /** Index of the `$` that opens the placeholder. */
  readonly offset: number;
}

/** A piece of a scanned string; joining the pieces gives the string back. */
export type Segment = TextSegment | PlaceholderSegment;

/** What {@link scanPlaceholders} returns. */
export interface ScanResult {
  readonly segments: Segment[];
  readonly issues: Issue[];
}

/**
 * Splits a string into literal text and `${name}` placeholders.
 *
 * Runs in linear time on any input. A malformed placeholder is kept as literal
 * text in `segments` and reported in `issues` (`invalid-placeholder`,
 * `unterminated-placeholder`) with the `offset` of its `$`; the issue's `path`
 * is `''` (the caller knows where the string lives).
 *
 * @example
 * ```ts
 * scanPlaceholders('Row ${seat}').segments;
 * // [{ type: 'text', value: 'Row ', offset: 0 }, { type: 'placeholder', name: 'seat', offset: 4 }]
 * ```
 */
export function scanPlaceholders(text: string): ScanResult {
  return scan(text, '');
}

/** {@link scanPlaceholders} with the JSON Pointer of the string, for located issues. */
export function scan(text: string, path: string): ScanResult {
  const segments: Segment[] = [];
  const issues: Issue[] = [];
  let textStart = 0;
  let cursor = 0;
  let lastName = '';
  for (;;) {
    const open = text.indexOf('${', cursor);
    if (open === -1) break;
    const close = text.indexOf('}', open + 2);
    if (close === -1) {
      // No `}` anywhere after this point: the rest of the string is text, one issue.
      issues.push({
        severity: 'error',
        code: 'unterminated-placeholder',
        message: `"\${" at offset ${open} has no closing "}"`,
        path,
        offset: open,
      });
      break;
    }
    // A name met just before is shared, not sliced again: dense text repeats its names.
    const name = close - open - 2 === lastName.length && text.startsWith(lastName, open + 2) ? lastName : text.slice(open + 2, close);
    lastName = name;
    const problem = nameProblem(name);
    if (problem === undefined) {
      if (open > textStart) segments.push({ type: 'text', value: text.slice(textStart, open), offset: textStart });
      segments.push({ type: 'placeholder', name, offset: open });
      textStart = close + 1;
    } else {
      issues.push({
        severity: 'error',
        code: 'invalid-placeholder',
        // One constant sentence per rule: the name is in `placeholder`, the place
        // in `offset`. Text dense with broken placeholders then costs one small
        // object per issue, so scanning stays linear (a message per issue holding
        // the name was measured 33× slower at 1 MB than at 100 KB).
        message: problem,
        path,
        placeholder: name,
        offset: open,
      });
    }
    cursor = close + 1;
  }
  if (textStart < text.length) segments.push({ type: 'text', value: text.slice(textStart), offset: textStart });
  return { segments, issues };
}

/**
 * Whether a string holds at least one `${` — the cheap test for "this value
 * depends on placeholders".
 *
 * @example
 * ```ts
 * hasPlaceholderSyntax('Row ${seat}'); // true
 * ```
 */
export function hasPlaceholderSyntax(text: string): boolean {
  return text.includes('${');
}

// The `invalid-placeholder` message, one per rule.
const EMPTY = 'Invalid placeholder: the name between "${" and "}" is empty';
const DOLLAR_OR_BRACE = 'Invalid placeholder: a name may not contain "$" or "{"';
const CONTROL = 'Invalid placeholder: a name may not contain control characters';
const EDGE_SPACE = 'Invalid placeholder: a name may not start or end with whitespace';

/** The message for a name that breaks a rule, `undefined` for a valid name. */
function nameProblem(name: string): string | undefined {
  // One pass over the characters (the rules are checked in their order below),
  // no regular expression: a scan of text dense with placeholders calls this
  // hundreds of thousands of times.
  const length = name.length;
  if (length === 0) return EMPTY;
  let dollarOrBrace = false;
  let control = false;
  for (let index = 0; index < length; index++) {
    const code = name.charCodeAt(index);
    if (code === 0x24 || code === 0x7b) dollarOrBrace = true;
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) control = true;
  }
  if (dollarOrBrace) return DOLLAR_OR_BRACE;
  if (control) return CONTROL;
  if (isSpace(name.charCodeAt(0)) || isSpace(name.charCodeAt(length - 1))) return EDGE_SPACE;
  return undefined;
}

/** What `\s` matches in a regular expression: ECMAScript's WhiteSpace and LineTerminator. */
function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
