import type { SyntaxNode, Tree } from '@lezer/common';
import { parser } from '@lezer/json';

/** A span of the editor text that a JSON Pointer leads to. */
export interface JsonLocation {
  /** Start of the value (or, when the pointer goes further than the text, of the deepest member found). */
  readonly from: number;
  readonly to: number;
  /** Start of the member's key, when the value is an object member. */
  readonly keyFrom?: number;
  /** `false` when only an ancestor of the pointer exists in the text. */
  readonly exact: boolean;
  /** Whether the value is a string literal (so an `offset` inside it can be mapped). */
  readonly isString: boolean;
}

/** Where a JSON text fails to parse. */
export interface JsonSyntaxError {
  readonly message: string;
  readonly offset: number;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
}

/**
 * Parses editor text with Lezer's JSON grammar, the same grammar the editor
 * highlights with: error tolerant, and every node keeps its source position.
 *
 * @example
 * ```ts
 * const tree = parseJsonTree('{"a": 1}');
 * ```
 */
export function parseJsonTree(text: string): Tree {
  return parser.parse(text);
}

const PUNCTUATION = new Set(['{', '}', '[', ']', ',', ':']);

function valueChildren(node: SyntaxNode): SyntaxNode[] {
  const children: SyntaxNode[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (!child.type.isError && !PUNCTUATION.has(child.type.name)) children.push(child);
  }
  return children;
}

function propertyValue(property: SyntaxNode): SyntaxNode | undefined {
  return valueChildren(property).find((child) => child.type.name !== 'PropertyName');
}

function decodeKey(raw: string): string {
  try {
    const key: unknown = JSON.parse(raw);
    return typeof key === 'string' ? key : raw;
  } catch {
    return raw.replace(/^"|"$/g, '');
  }
}

function decodeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Finds the text of the value a JSON Pointer (RFC 6901) names. When the
 * pointer goes further than the text does, the deepest existing member is
 * returned with `exact: false`; `undefined` only when the text holds no value.
 *
 * @example
 * ```ts
 * const text = '{"a": [1, 2]}';
 * locatePointer(text, parseJsonTree(text), '/a/1'); // { from: 10, to: 11, exact: true, … }
 * ```
 */
export function locatePointer(text: string, tree: Tree, pointer: string): JsonLocation | undefined {
  let node = valueChildren(tree.topNode)[0];
  if (node === undefined) return undefined;
  let keyFrom: number | undefined;
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/').map(decodeToken);
  let exact = true;
  for (const token of tokens) {
    let next: SyntaxNode | undefined;
    let nextKeyFrom: number | undefined;
    if (node.type.name === 'Object') {
      // JSON.parse keeps the last of duplicate keys, so the last match is the one in effect.
      for (const property of valueChildren(node)) {
        const name = property.getChild('PropertyName');
        if (name === null || decodeKey(text.slice(name.from, name.to)) !== token) continue;
        next = propertyValue(property) ?? property;
        nextKeyFrom = name.from;
      }
    } else if (node.type.name === 'Array' && /^(0|[1-9]\d*)$/.test(token)) {
      next = valueChildren(node)[Number(token)];
    }
    if (next === undefined) {
      exact = false;
      break;
    }
    node = next;
    keyFrom = nextKeyFrom;
  }
  return {
    from: node.from,
    to: node.to,
    ...(keyFrom === undefined ? {} : { keyFrom }),
    exact,
    isString: node.type.name === 'String',
  };
}

/**
 * Maps a character index of a decoded JSON string to an index in its source
 * literal (which starts with the quote), stepping over escapes like `\n` and `\u0041`.
 *
 * @example
 * ```ts
 * literalIndex(String.raw`"a\nb${x}"`, 3); // 5
 * ```
 */
export function literalIndex(literal: string, offset: number): number {
  let index = 1;
  for (let decoded = 0; decoded < offset && index < literal.length - 1; decoded++) {
    index += literal[index] !== '\\' ? 1 : literal[index + 1] === 'u' ? 6 : 2;
  }
  return index;
}

/**
 * Line and column (both 1-based) of a character index.
 *
 * @example
 * ```ts
 * lineColumn('a\nbc', 3); // { line: 2, column: 2 }
 * ```
 */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/**
 * Parses JSON text; on failure says where, using the engine's position when its
 * message gives one (V8, Firefox) and the first error in the Lezer tree otherwise.
 *
 * @example
 * ```ts
 * parseJson('{"a": }'); // { ok: false, error: { message: 'Unexpected token …', line: 1, column: 7, … } }
 * ```
 */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: JsonSyntaxError } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error);
    const offset = engineOffset(text, raw) ?? firstTreeError(text);
    const reason = raw
      .replace(/^JSON\.parse: /, '')
      .replace(/ (in JSON )?at position \d+.*$/s, '')
      .replace(/ at line \d+ column \d+ of the JSON data$/, '')
      .replace(/, .*is not valid JSON$/s, '');
    return { ok: false, error: { message: reason, offset, ...lineColumn(text, offset) } };
  }
}

function engineOffset(text: string, message: string): number | undefined {
  const position = /at position (\d+)/.exec(message);
  if (position?.[1] !== undefined) return Math.min(Number(position[1]), text.length);
  const lineCol = /at line (\d+) column (\d+)/.exec(message);
  if (lineCol?.[1] !== undefined && lineCol[2] !== undefined) {
    const lines = text.split('\n').slice(0, Number(lineCol[1]) - 1);
    return Math.min(lines.reduce((sum, line) => sum + line.length + 1, 0) + Number(lineCol[2]) - 1, text.length);
  }
  if (/end of (JSON )?input|unexpected end/i.test(message)) return text.length;
  return undefined;
}

function firstTreeError(text: string): number {
  let found = text.length;
  parseJsonTree(text).iterate({
    enter: (node) => {
      if (found !== text.length) return false;
      if (node.type.isError) found = node.from;
      return undefined;
    },
  });
  return found;
}
