// What a JSON text loses when it is parsed and written again: numbers that a
// double cannot hold (12345678901234567890 comes back as 12345678901234567000).
// Repeated keys, the other loss, are parseJsonText's `duplicate-key`.

import type { Issue } from '../issues.js';
import { pointerToken } from '../issues.js';

const NUMBER = /-?(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?/y;
const MAX_REPORTED = 20;

interface Frame {
  readonly object: boolean;
  token: string;
  index: number;
  expectKey: boolean;
}

/**
 * Appends a `lossy-json` warning (path `prefix` + the number's pointer) for
 * every number in `text` whose value JSON.parse does not keep exactly, so
 * that `JSON.stringify` would write a different number: integers beyond
 * 2^53, more significant digits than a double holds, overflow to Infinity.
 * `1.0`, `1e2` or `0.10` lose nothing (only their spelling changes). `text`
 * must be valid JSON (trailing commas allowed). Linear in its length; at most
 * twenty issues.
 */
export function checkNumberFidelity(text: string, prefix: string, issues: Issue[]): void {
  // Most texts have no long digit run and no exponent: nothing to lose.
  if (!/\d[eE]|(?:\d\.?){16}/.test(text)) return;
  const stack: Frame[] = [];
  let reported = 0;
  let index = 0;
  while (index < text.length && reported < MAX_REPORTED) {
    const char = text[index]!;
    const top = stack[stack.length - 1];
    if (char === '"') {
      const end = stringEnd(text, index);
      if (top?.object === true && top.expectKey) {
        top.token = pointerToken(JSON.parse(text.slice(index, end)) as string);
        top.expectKey = false;
      }
      index = end;
      continue;
    }
    if (char === '{' || char === '[') {
      stack.push({ object: char === '{', token: '0', index: 0, expectKey: char === '{' });
    } else if (char === '}' || char === ']') {
      stack.pop();
    } else if (char === ',') {
      if (top !== undefined) {
        if (top.object) top.expectKey = true;
        else top.token = String(++top.index);
      }
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      NUMBER.lastIndex = index;
      const match = NUMBER.exec(text);
      if (match === null) return;
      const literal = match[0];
      const value = Number(literal);
      if (!sameNumber(literal, value)) {
        reported++;
        const path = prefix + stack.map((frame) => `/${frame.token}`).join('');
        const written = Number.isFinite(value) ? String(value) : 'null';
        issues.push({
          severity: 'warning',
          code: 'lossy-json',
          message: `${literal.length > 40 ? `${literal.slice(0, 40)}…` : literal} cannot be held exactly by JSON.parse and would be written again as ${written}; write it as a string`,
          path,
        });
      }
      index += literal.length;
      continue;
    }
    index++;
  }
}

/** The index just after the string literal starting at `start` (a quote). */
function stringEnd(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const char = text[index];
    if (char === '\\') index += 2;
    else if (char === '"') return index + 1;
    else index++;
  }
  return index;
}

/** Whether `literal` and `value` (what it was read as) denote the same decimal number. */
function sameNumber(literal: string, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const written = decimal(String(value).replace('e+', 'e'));
  const read = decimal(literal);
  return (
    written !== undefined && read !== undefined && written.digits === read.digits && written.exponent === read.exponent && written.negative === read.negative
  );
}

/** A number literal as significant digits × 10^exponent; zero has digits ''. */
function decimal(literal: string): { negative: boolean; digits: string; exponent: number } | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (match === null) return undefined;
  const fraction = match[3] ?? '';
  let digits = (match[2]! + fraction).replace(/^0+/, '');
  let exponent = Number(match[4] ?? '0') - fraction.length;
  const trimmed = digits.replace(/0+$/, '');
  exponent += digits.length - trimmed.length;
  digits = trimmed;
  if (digits === '') return { negative: false, digits: '', exponent: 0 };
  return { negative: match[1] === '-', digits, exponent };
}
