import { type Issue, pointerToken } from './issues.js';

/**
 * A place in a JSON text: `offset` is a UTF-16 index into the text, `line`
 * and `column` are 1-based (a column counts UTF-16 code units, as editors and
 * TypeScript's diagnostics do).
 *
 * @example
 * ```ts
 * parseJsonText('{\n  "a": 1\n}').position(4); // { offset: 4, line: 2, column: 3 }
 * ```
 */
export interface JsonTextPosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/**
 * Where a JSON Pointer leads in the text: see {@link JsonText.locate}.
 *
 * @example
 * ```ts
 * parseJsonText('{"a": {}}').locate('/a/b'); // { offset: 1, line: 1, column: 2, exact: false }
 * ```
 */
export interface JsonTextLocation extends JsonTextPosition {
  /** `false` when the pointer goes further than the text: the location is then its deepest existing ancestor's. */
  readonly exact: boolean;
}

/**
 * Options of {@link parseJsonText}.
 *
 * @example
 * ```ts
 * parseJsonText('{"a": 1, "a": 2}', { duplicateKeys: 'error' }).issues[0]?.severity; // 'error'
 * ```
 */
export interface ParseJsonTextOptions {
  /**
   * Severity of `duplicate-key` (default `'warning'`): JSON.parse and Apple's
   * reader keep one of the two members silently, so the text says two things
   * and the pass holds one — a mistake, but not one Wallet refuses.
   */
  readonly duplicateKeys?: 'error' | 'warning';
  /**
   * A comma after the last member of an object or array (`[1, 2,]`).
   * `'warning'` (the default) reads it as Apple's pass.json reader does — the
   * value as if the comma were not there — with a `trailing-comma` warning at
   * the member it follows; `'invalid'` refuses it as `JSON.parse` does
   * (`invalid-json`, no value). Wallet opens passes whose pass.json has one:
   * Apple's own sample boarding pass does.
   */
  readonly trailingCommas?: 'warning' | 'invalid';
}

/**
 * What {@link parseJsonText} returns.
 *
 * @example
 * ```ts
 * const { value, issues, locate } = parseJsonText(text);
 * ```
 */
export interface JsonText {
  /**
   * The value, as `JSON.parse` gives it (the last of duplicate members wins,
   * `__proto__` is an ordinary own key); absent when the text is not JSON.
   */
  readonly value?: unknown;
  /**
   * `invalid-json` (error, path `''`, `offset` into the text), `duplicate-key`
   * (path of the repeated member) or `trailing-comma` (warning, path of the
   * member the comma follows, `offset` of the comma in the text) issues, in
   * text order.
   */
  readonly issues: readonly Issue[];
  /**
   * Where the value a JSON Pointer names starts: an object member's key (its
   * opening quote), an array element's value, the root's value. With
   * `offset`, a character index inside the string value there (the `offset`
   * of a text issue), the position of that character in the literal, escapes
   * stepped over. `undefined` only when the text holds no value.
   */
  locate(pointer: string, offset?: number): JsonTextLocation | undefined;
  /** Line and column of an offset into the text. */
  position(offset: number): JsonTextPosition;
}

/**
 * Reads a JSON text the way `JSON.parse` does, and also reports what
 * `JSON.parse` hides: a key given twice in one object (`duplicate-key`), and
 * where each value sits in the text, for `file:line:column` messages. A comma
 * before a closing bracket is read as Apple's reader reads it, with a
 * `trailing-comma` warning (see {@link ParseJsonTextOptions.trailingCommas}). Linear
 * in the text's length whatever it holds (no recursion: any nesting depth;
 * pointers and duplicate lookups cost the same for hostile text); never throws.
 *
 * @example
 * ```ts
 * const text = '{\n  "generic": {},\n  "generic": {}\n}';
 * const parsed = parseJsonText(text);
 * parsed.issues[0]; // { severity: 'warning', code: 'duplicate-key', path: '/generic', … }
 * parsed.locate('/generic'); // { offset: 21, line: 3, column: 3, exact: true }
 * ```
 */
export function parseJsonText(text: string, options: ParseJsonTextOptions = {}): JsonText {
  const parser = new Parser(text, options.duplicateKeys ?? 'warning', options.trailingCommas !== 'invalid');
  let value: unknown;
  let ok = false;
  try {
    value = parser.parse();
    ok = true;
  } catch (error) {
    if (!(error instanceof SyntaxProblem)) throw error;
    parser.issues.push({
      severity: 'error',
      code: 'invalid-json',
      message: `Not valid JSON: ${error.message} (${describePosition(parser.position(error.offset))})`,
      path: '',
      offset: error.offset,
    });
  }
  const root = parser.root;
  const result: JsonText = {
    issues: parser.issues,
    locate: (pointer, offset) => (root === undefined ? undefined : locate(text, root, pointer, offset, parser)),
    position: (offset) => parser.position(offset),
  };
  return ok ? { ...result, value } : result;
}

function describePosition(position: JsonTextPosition): string {
  return `line ${position.line}, column ${position.column}`;
}

/** Where a value is, and for a container where its members are. */
interface Place {
  /** Start of the member: the key of an object member, else the value. */
  readonly start: number;
  /** Start of the value itself. */
  readonly value: number;
  /** An object's members by key (the last of duplicates) or an array's elements. */
  members?: Map<string, Place> | Place[];
}

class SyntaxProblem extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** An open container on the parser's stack. */
interface Frame {
  readonly place: Place;
  readonly container: Record<string, unknown> | unknown[];
  readonly parent: Frame | undefined;
  /** The member or element of `parent` this container is. */
  readonly token: string;
  /** For an object: the key being read, and where it starts. */
  key: string;
  /** The pointer of this container, built once when an issue needs it. */
  pointer: string | undefined;
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

class Parser {
  readonly issues: Issue[] = [];
  root: Place | undefined;
  private index = 0;
  private lineStarts: number[] | undefined;

  constructor(
    private readonly text: string,
    private readonly duplicateSeverity: 'error' | 'warning',
    private readonly allowTrailingCommas: boolean,
  ) {}

  position(offset: number): JsonTextPosition {
    const starts = (this.lineStarts ??= lineStartsOf(this.text));
    const at = Math.max(0, Math.min(offset, this.text.length));
    // The last line start at or before `at`: a binary search.
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] as number) <= at) low = middle;
      else high = middle - 1;
    }
    return { offset: at, line: low + 1, column: at - (starts[low] as number) + 1 };
  }

  parse(): unknown {
    const text = this.text;
    // A byte order mark is not JSON, but editors write one; readers skip it.
    if (text.charCodeAt(0) === 0xfeff) this.index = 1;
    let frame: Frame | undefined;
    let result: unknown;
    let done = false;
    // Each turn reads one value (or closes containers); containers are frames, not recursion.
    while (!done) {
      this.skipWhitespace();
      let start = this.index;
      let memberStart = start;
      if (frame !== undefined && !Array.isArray(frame.container)) {
        // Inside an object: a key and a colon come first.
        if (text.charCodeAt(this.index) !== 0x22) throw this.unexpected('a key in double quotes');
        memberStart = this.index;
        frame.key = this.readString();
        this.skipWhitespace();
        if (text.charCodeAt(this.index) !== 0x3a) throw this.unexpected('":"');
        this.index++;
        this.skipWhitespace();
        start = this.index;
      }
      let value: unknown;
      let place: Place;
      const code = text.charCodeAt(this.index);
      if (code === 0x7b || code === 0x5b) {
        this.index++;
        const container: Record<string, unknown> | unknown[] = code === 0x7b ? {} : [];
        place = { start: memberStart, value: start, members: code === 0x7b ? new Map() : [] };
        const token = frame === undefined ? '' : this.tokenIn(frame);
        this.attach(frame, container, place);
        frame = { place, container, parent: frame, token, key: '', pointer: undefined };
        this.skipWhitespace();
        const close = code === 0x7b ? 0x7d : 0x5d;
        if (text.charCodeAt(this.index) !== close) continue;
        // An empty container closes at once.
        this.index++;
        frame = frame.parent;
        if (frame === undefined) {
          result = container;
          break;
        }
      } else {
        value = this.readScalar();
        place = { start: memberStart, value: start };
        if (frame === undefined) {
          this.root = place;
          result = value;
        } else this.attach(frame, value, place);
        if (frame === undefined) break;
      }
      // After a value: a comma continues its container, a bracket closes it (maybe several).
      for (;;) {
        if (frame === undefined) {
          done = true;
          break;
        }
        this.skipWhitespace();
        const next = text.charCodeAt(this.index);
        const isArray = Array.isArray(frame.container);
        if (next === 0x2c) {
          const comma = this.index;
          this.index++;
          if (!this.allowTrailingCommas) break;
          this.skipWhitespace();
          if (this.text.charCodeAt(this.index) !== (isArray ? 0x5d : 0x7d)) break;
          this.trailingComma(frame, comma);
          continue;
        }
        if (next === (isArray ? 0x5d : 0x7d)) {
          this.index++;
          const closed: Frame = frame;
          frame = closed.parent;
          if (frame === undefined) {
            result = closed.container;
            done = true;
            break;
          }
          continue;
        }
        throw this.unexpected(isArray ? '"," or "]"' : '"," or "}"');
      }
    }
    this.skipWhitespace();
    if (this.index < text.length) throw this.unexpected('the end of the text');
    return result;
  }

  /** Puts `value` (at `place`) into the open container `frame`, or makes it the root. */
  private attach(frame: Frame | undefined, value: unknown, place: Place): void {
    if (frame === undefined) {
      this.root = place;
      return;
    }
    const container = frame.container;
    if (Array.isArray(container)) {
      container.push(value);
      (frame.place.members as Place[]).push(place);
      return;
    }
    const members = frame.place.members as Map<string, Place>;
    const key = frame.key;
    const first = members.get(key);
    if (first !== undefined) {
      const where = describePosition(this.position(first.start));
      this.issues.push({
        severity: this.duplicateSeverity,
        code: 'duplicate-key',
        message: `Key ${JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}…` : key)} appears twice in one object (first at ${where}); readers keep only one of the two`,
        path: `${this.pointerOf(frame)}/${pointerToken(key)}`,
      });
    }
    members.set(key, place);
    if (key === '__proto__') Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
    else container[key] = value;
  }

  /** Reports the comma at `offset` after the last member of `frame` (the loop then closes it). */
  private trailingComma(frame: Frame, offset: number): void {
    const container = frame.container;
    const last = Array.isArray(container) ? String(container.length - 1) : pointerToken(frame.key);
    this.issues.push({
      severity: 'warning',
      code: 'trailing-comma',
      message: `A comma after the last ${Array.isArray(container) ? 'element' : 'member'} (${describePosition(this.position(offset))}): not JSON, but Apple's reader accepts it; other readers may not`,
      path: `${this.pointerOf(frame)}/${last}`,
      offset,
    });
  }

  /** The reference token the next value of `frame` will have. */
  private tokenIn(frame: Frame): string {
    return Array.isArray(frame.container) ? String(frame.container.length) : pointerToken(frame.key);
  }

  /** The pointer of a container, built once (each from its parent's: linear however deep). */
  private pointerOf(frame: Frame): string {
    if (frame.pointer !== undefined) return frame.pointer;
    // Iterative, for any depth: find the nearest ancestor that has one, then build down.
    const chain: Frame[] = [];
    let current: Frame | undefined = frame;
    while (current !== undefined && current.pointer === undefined) {
      chain.push(current);
      current = current.parent;
    }
    let pointer = current?.pointer ?? '';
    for (let index = chain.length - 1; index >= 0; index--) {
      const each = chain[index] as Frame;
      pointer = each.parent === undefined ? '' : `${pointer}/${each.token}`;
      each.pointer = pointer;
    }
    return pointer;
  }

  private skipWhitespace(): void {
    const text = this.text;
    while (this.index < text.length && WHITESPACE.has(text.charCodeAt(this.index))) this.index++;
  }

  private unexpected(expected: string): SyntaxProblem {
    if (this.index >= this.text.length) return new SyntaxProblem(`the text ends where ${expected} was expected`, this.text.length);
    const character = String.fromCodePoint(this.text.codePointAt(this.index) ?? 0);
    return new SyntaxProblem(`${JSON.stringify(character)} where ${expected} was expected`, this.index);
  }

  private readScalar(): unknown {
    const text = this.text;
    const code = text.charCodeAt(this.index);
    if (code === 0x22) return this.readString();
    if (code === 0x2d || (code >= 0x30 && code <= 0x39)) return this.readNumber();
    for (const [word, value] of LITERALS) {
      if (text.startsWith(word, this.index)) {
        this.index += word.length;
        return value;
      }
    }
    throw this.unexpected('a value');
  }

  private readNumber(): number {
    const text = this.text;
    const start = this.index;
    if (text.charCodeAt(this.index) === 0x2d) this.index++;
    const first = text.charCodeAt(this.index);
    if (first === 0x30) this.index++;
    else if (first >= 0x31 && first <= 0x39) this.skipDigits();
    else throw this.unexpected('a digit');
    if (text.charCodeAt(this.index) === 0x2e) {
      this.index++;
      if (!isDigit(text.charCodeAt(this.index))) throw this.unexpected('a digit');
      this.skipDigits();
    }
    const exponent = text.charCodeAt(this.index);
    if (exponent === 0x65 || exponent === 0x45) {
      this.index++;
      const sign = text.charCodeAt(this.index);
      if (sign === 0x2b || sign === 0x2d) this.index++;
      if (!isDigit(text.charCodeAt(this.index))) throw this.unexpected('a digit');
      this.skipDigits();
    }
    return Number(text.slice(start, this.index));
  }

  private skipDigits(): void {
    while (isDigit(this.text.charCodeAt(this.index))) this.index++;
  }

  /** Reads a string literal at the current index (its opening quote). */
  private readString(): string {
    const text = this.text;
    this.index++;
    let chunkStart = this.index;
    let out = '';
    for (;;) {
      if (this.index >= text.length) throw new SyntaxProblem('a string is not closed', text.length);
      const code = text.charCodeAt(this.index);
      if (code === 0x22) {
        out += text.slice(chunkStart, this.index);
        this.index++;
        return out;
      }
      if (code < 0x20) throw new SyntaxProblem('a control character must be escaped inside a string', this.index);
      if (code !== 0x5c) {
        this.index++;
        continue;
      }
      out += text.slice(chunkStart, this.index);
      const escape = text.charCodeAt(this.index + 1);
      const simple = ESCAPES.get(escape);
      if (simple !== undefined) {
        out += simple;
        this.index += 2;
      } else if (escape === 0x75 && /^[0-9A-Fa-f]{4}$/.test(text.slice(this.index + 2, this.index + 6))) {
        out += String.fromCharCode(Number.parseInt(text.slice(this.index + 2, this.index + 6), 16));
        this.index += 6;
      } else {
        throw new SyntaxProblem('an invalid escape in a string', this.index);
      }
      chunkStart = this.index;
    }
  }
}

const LITERALS: readonly (readonly [string, unknown])[] = [
  ['true', true],
  ['false', false],
  ['null', null],
];

const ESCAPES: ReadonlyMap<number, string> = new Map([
  [0x22, '"'],
  [0x5c, '\\'],
  [0x2f, '/'],
  [0x62, '\b'],
  [0x66, '\f'],
  [0x6e, '\n'],
  [0x72, '\r'],
  [0x74, '\t'],
]);

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1);
  return starts;
}

function locate(text: string, root: Place, pointer: string, offset: number | undefined, parser: Parser): JsonTextLocation {
  let place = root;
  let exact = true;
  if (pointer !== '') {
    // Token by token, without splitting the whole pointer up front.
    let from = 1;
    while (from <= pointer.length) {
      const end = pointer.indexOf('/', from);
      const raw = pointer.slice(from, end === -1 ? pointer.length : end);
      from = end === -1 ? pointer.length + 1 : end + 1;
      const token = raw.includes('~') ? raw.replace(/~1/g, '/').replace(/~0/g, '~') : raw;
      const members = place.members;
      const next =
        members === undefined ? undefined : Array.isArray(members) ? (/^(?:0|[1-9]\d*)$/.test(token) ? members[Number(token)] : undefined) : members.get(token);
      if (next === undefined) {
        exact = false;
        break;
      }
      place = next;
    }
  }
  let at = place.start;
  if (exact && offset !== undefined && text.charCodeAt(place.value) === 0x22) at = literalIndex(text, place.value, offset);
  return { ...parser.position(at), exact };
}

/** The index in `text` of character `offset` of the string literal starting at `start` (its quote). */
function literalIndex(text: string, start: number, offset: number): number {
  let index = start + 1;
  for (let decoded = 0; decoded < offset && index < text.length && text.charCodeAt(index) !== 0x22; decoded++) {
    index += text.charCodeAt(index) !== 0x5c ? 1 : text.charCodeAt(index + 1) === 0x75 ? 6 : 2;
  }
  return index;
}
