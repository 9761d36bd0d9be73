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

// Control characters (C0, DEL, C1) may not appear in a name.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const EDGE_SPACE = /^\s|\s$/;

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
    const name = text.slice(open + 2, close);
    const problem = nameProblem(name);
    if (problem === undefined) {
      if (open > textStart) segments.push({ type: 'text', value: text.slice(textStart, open), offset: textStart });
      segments.push({ type: 'placeholder', name, offset: open });
      textStart = close + 1;
    } else {
      issues.push({
        severity: 'error',
        code: 'invalid-placeholder',
        message: `Placeholder "\${${name}}" at offset ${open} is invalid: ${problem}`,
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

function nameProblem(name: string): string | undefined {
  if (name.length === 0) return 'the name is empty';
  if (name.includes('$') || name.includes('{')) return 'a name may not contain "$" or "{"';
  if (CONTROL.test(name)) return 'a name may not contain control characters';
  if (EDGE_SPACE.test(name)) return 'a name may not start or end with whitespace';
  return undefined;
}
