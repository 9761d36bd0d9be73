import fc from 'fast-check';

/** Runs per property: a few thousand in CI, fewer on a developer machine unless asked. */
export const RUNS: number = Number(process.env['PASSMINT_RUNS'] ?? (process.env['CI'] ? 3000 : 1000));

/** A placeholder name that follows the notation rules. */
export const placeholderName: fc.Arbitrary<string> = fc
  .string({ minLength: 1, maxLength: 12, unit: 'grapheme' })
  .filter((name) => !/[${}\p{Cc}]/u.test(name) && name.trim() === name && name.length > 0);

/** Text made mostly of the notation's characters, valid and broken placeholders mixed. */
export const notationText: fc.Arbitrary<string> = fc
  .array(fc.constantFrom('$', '{', '}', '${', '${a}', '${ b}', '${}', 'x', ' ', '\n', 'é', '${name}', '$$'), { maxLength: 40 })
  .map((parts) => parts.join(''));

/** A piece of a generated template string: literal text (never holding `$`), or a placeholder by name. */
export type Part = { readonly text: string } | { readonly name: string };

/** A generated template body, described so the expected render can be computed without the library. */
export type Spec =
  | { readonly kind: 'string'; readonly parts: readonly Part[] }
  | { readonly kind: 'leaf'; readonly value: number | boolean | null }
  | { readonly kind: 'array'; readonly items: readonly Spec[] }
  | { readonly kind: 'object'; readonly entries: readonly (readonly [string, Spec])[] };

/** Keys that have bitten JavaScript code before. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', '"', '\\', '</script>', '\u2028', '${x}', '', '0', '-1'),
  fc.string({ maxLength: 8 }),
);

/** Bodies using names from `names`, literal text from `text`, keys from `key`. */
export function specArbitrary(names: readonly string[], text: fc.Arbitrary<string>, key: fc.Arbitrary<string> = hostileKey): fc.Arbitrary<Spec> {
  const part: fc.Arbitrary<Part> =
    names.length === 0
      ? text.map((t) => ({ text: t }))
      : fc.oneof(
          text.map((t) => ({ text: t })),
          fc.constantFrom(...names).map((name) => ({ name })),
        );
  const { spec } = fc.letrec<{ spec: Spec }>((tie) => ({
    spec: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.array(part, { maxLength: 4 }).map((parts) => ({ kind: 'string' as const, parts })),
      fc
        .oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null))
        .map((value) => ({ kind: 'leaf' as const, value })),
      fc.array(tie('spec'), { maxLength: 4 }).map((items) => ({ kind: 'array' as const, items })),
      fc.uniqueArray(fc.tuple(key, tie('spec')), { maxLength: 4, selector: ([key]) => key }).map((entries) => ({ kind: 'object' as const, entries })),
    ),
  }));
  return spec;
}

function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The template body a spec describes. */
export function specToTemplate(spec: Spec, write: (name: string) => string = (name) => `\${${name}}`): unknown {
  switch (spec.kind) {
    case 'string':
      return spec.parts.map((part) => ('name' in part ? write(part.name) : part.text)).join('');
    case 'leaf':
      return spec.value;
    case 'array':
      return spec.items.map((item) => specToTemplate(item, write));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, value] of spec.entries) defineOwn(out, key, specToTemplate(value, write));
      return out;
    }
  }
}

/** What rendering a spec with `values` must give, computed independently of the library. */
export function specExpected(spec: Spec, values: Readonly<Record<string, unknown>>): unknown {
  switch (spec.kind) {
    case 'string': {
      const parts = spec.parts.filter((part) => !('text' in part) || part.text !== '');
      const [only] = parts;
      if (parts.length === 1 && only !== undefined && 'name' in only) return values[only.name];
      return spec.parts.map((part) => ('name' in part ? String(values[part.name]) : part.text)).join('');
    }
    case 'leaf':
      return spec.value;
    case 'array':
      return spec.items.map((item) => specExpected(item, values));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, value] of spec.entries) defineOwn(out, key, specExpected(value, values));
      return out;
    }
  }
}

/** The names a spec uses. */
export function specNames(spec: Spec, into: Set<string> = new Set()): Set<string> {
  if (spec.kind === 'string') for (const part of spec.parts) if ('name' in part) into.add(part.name);
  if (spec.kind === 'array') for (const item of spec.items) specNames(item, into);
  if (spec.kind === 'object') for (const [, value] of spec.entries) specNames(value, into);
  return into;
}

/** Literal text that cannot form a placeholder: no `$`. */
export const literalText: fc.Arbitrary<string> = fc.string({ maxLength: 6, unit: 'grapheme' }).map((s) => s.replaceAll('$', '¤'));

/** A template holding a generated body in `userInfo.body`, where Apple's rules have nothing to say about it. */
export function templateOf(body: unknown, placeholder: readonly string[]): Record<string, unknown> {
  return {
    id: 1,
    name: 'Generated',
    formatVersion: 1,
    passType: 'pass.com.example.generated',
    description: { generic: { primaryFields: [{ key: 'k', value: 'v' }] }, userInfo: { body } },
    placeholder: [...placeholder],
  };
}

/**
 * Text a URL path segment can carry once encoded: any well-formed Unicode,
 * rich in `/`, `%`, `.`, spaces and URL delimiters; never `''`, `'.'` or `'..'`
 * (no URL can hold those as a segment).
 */
export const pathSegmentText: fc.Arbitrary<string> = fc
  .string({
    minLength: 1,
    maxLength: 24,
    unit: fc.oneof(
      fc.constantFrom('/', '%', '.', ' ', '?', '#', '&', '+', '=', ';', '\\', '%2F', '%25', '%2E', '~', "'"),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
  })
  .filter((text) => text !== '.' && text !== '..');

/**
 * Describes a JSON-like value exactly — own keys in order, prototypes, `-0` —
 * so two outputs can be compared where `toStrictEqual` is fooled by own keys
 * such as `constructor`.
 */
export function exactShape(value: unknown): string {
  const describe = (node: unknown): unknown => {
    if (typeof node === 'number') return Object.is(node, -0) ? '<-0>' : node;
    if (typeof node !== 'object' || node === null) return node;
    const proto = Object.getPrototypeOf(node) === (Array.isArray(node) ? Array.prototype : Object.prototype) ? '' : '<odd prototype>';
    if (Array.isArray(node)) return [proto, ...node.map(describe)];
    return [proto, ...Object.keys(node).map((key) => [key, describe((node as Record<string, unknown>)[key])])];
  };
  return JSON.stringify(describe(value));
}
