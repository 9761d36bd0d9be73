/** What could be read of a JSON text that may be cut short. */
export interface PartialJson {
  readonly value: unknown;
  /** Whether the text held the whole value. */
  readonly complete: boolean;
  /** Where the text was cut: the keys and indices down to the value left unfinished (empty when complete). */
  readonly cut: readonly string[];
}

const WHITESPACE = /[ \t\n\r]*/y;
const LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

/**
 * Reads as much as it can of a JSON text that may end early (a link cut when it was
 * copied): strings, objects and arrays left open are closed where the text stops,
 * and the place of the cut is returned. Text that is not JSON gives `undefined`.
 *
 * @example
 * ```ts
 * readPartialJson('{"a":"xy","b":"long te'); // { value: { a: 'xy', b: 'long te' }, complete: false, cut: ['b'] }
 * ```
 */
export function readPartialJson(text: string): PartialJson | undefined {
  let at = 0;
  const skip = (): void => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.exec(text);
    at = WHITESPACE.lastIndex;
  };
  const fail = (): never => {
    throw new SyntaxError('not JSON');
  };
  const readString = (): { value: string; complete: boolean } => {
    const start = at;
    at++;
    while (at < text.length) {
      const char = text[at];
      if (char === '"') {
        at++;
        return { value: JSON.parse(text.slice(start, at)) as string, complete: true };
      }
      at += char === '\\' ? 2 : 1;
    }
    // Cut inside the string: drop a half escape at the end, close it.
    const body = text.slice(start).replace(/\\(u[0-9a-fA-F]{0,3})?$/, '');
    return { value: JSON.parse(`${body}"`) as string, complete: false };
  };
  const readValue = (path: string[]): PartialJson | undefined => {
    skip();
    if (at >= text.length) return undefined;
    const char = text[at];
    if (char === '"') {
      const { value, complete } = readString();
      return { value, complete, cut: complete ? [] : path };
    }
    if (char === '{' || char === '[') {
      const isArray = char === '[';
      const result: Record<string, unknown> | unknown[] = isArray ? [] : {};
      at++;
      for (let index = 0; ; index++) {
        skip();
        if (at >= text.length) return { value: result, complete: false, cut: path };
        if (text[at] === (isArray ? ']' : '}')) {
          at++;
          return { value: result, complete: true, cut: [] };
        }
        if (index > 0) {
          if (text[at] !== ',') fail();
          at++;
          skip();
          if (at >= text.length) return { value: result, complete: false, cut: path };
        }
        let key = String(index);
        if (!isArray) {
          if (text[at] !== '"') fail();
          const name = readString();
          if (!name.complete) return { value: result, complete: false, cut: path };
          key = name.value;
          skip();
          if (at >= text.length) return { value: result, complete: false, cut: path };
          if (text[at] !== ':') fail();
          at++;
        }
        const member = readValue([...path, key]);
        if (member === undefined) return { value: result, complete: false, cut: [...path, key] };
        if (isArray) (result as unknown[]).push(member.value);
        // defineProperty: a key like `__proto__` stays an ordinary member.
        else Object.defineProperty(result, key, { value: member.value, enumerable: true, writable: true, configurable: true });
        if (!member.complete) return { value: result, complete: false, cut: member.cut };
      }
    }
    LITERAL.lastIndex = at;
    const match = LITERAL.exec(text);
    if (match === null) {
      // A literal cut short ("tr", "-") is simply not there.
      if (/^(?:-|t(?:r(?:u)?)?|f(?:a(?:l(?:s)?)?)?|n(?:u(?:l)?)?)$/.test(text.slice(at))) return undefined;
      return fail();
    }
    at = LITERAL.lastIndex;
    // A number at the very end may have lost digits.
    const complete = at < text.length || !/\d$/.test(match[0]);
    return { value: JSON.parse(match[0]) as unknown, complete, cut: complete ? [] : path };
  };
  try {
    const result = readValue([]);
    if (result === undefined) return undefined;
    skip();
    if (result.complete && at < text.length) return undefined;
    return result;
  } catch {
    return undefined;
  }
}
