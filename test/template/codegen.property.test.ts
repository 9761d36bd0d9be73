import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { compileTemplate, RenderError, type PassTemplate } from '../../src/index.js';
import { generatePlan } from '../../src/template/codegen.js';
import { planBody } from '../../src/template/plan.js';
import type { JsonValue } from '../../src/types.js';
import { exactShape, hostileKey, placeholderName, RUNS, specArbitrary, specToTemplate, templateOf } from '../arbitraries.js';

// Texts that break naive code generation: quotes, backslashes, line
// terminators, comment and template-literal openers, `</script>`. No `$`: a
// literal `${` in a template would be a placeholder (or an error).
const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('"', "'", '`', '\\', '\\"', '</script>', '\u2028', '\u2029', '\n', '\r\n', '*/', '//', '\u0000', '"]});globalThis.pwned=1;({"', '\ud800'),
  fc.string({ maxLength: 8, unit: 'binary' }).map((text) => text.replaceAll('$', '¤')),
);
const hostileName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'a"b', 'a\\b', '</script>', 'x\u2028y', '"]);globalThis.pwned=1;//'),
  placeholderName,
);

function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

// JSON values whose objects may have own `__proto__`, `constructor` … keys.
const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    fc.oneof(
      hostileText,
      fc.constantFrom('${y}', '${', '}'),
      fc.integer(),
      fc.constant(-0),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    ),
    fc.array(tie('json'), { maxLength: 3 }),
    fc.uniqueArray(fc.tuple(hostileKey, tie('json')), { maxLength: 3, selector: ([key]) => key }).map((entries) => {
      const out: Record<string, unknown> = {};
      for (const [key, value] of entries) defineOwn(out, key, value);
      return out;
    }),
  ),
})).json;

const value: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.constantFrom('${y}', '${eventName}', '$', '-0'),
  fc.integer(),
  fc.constantFrom(-0, 0, 1e21, -1e-7, Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53 + 2),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  hostileJson,
);

/** `exactShape`, plus every own property a plain enumerable, writable, configurable data property. */
function fullShape(output: unknown): string {
  const descriptors: string[] = [];
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    for (const key of Reflect.ownKeys(node)) {
      if (Array.isArray(node) && key === 'length') continue;
      const descriptor = Object.getOwnPropertyDescriptor(node, key);
      if (descriptor === undefined || !('value' in descriptor) || !descriptor.enumerable || !descriptor.writable || !descriptor.configurable) {
        descriptors.push(String(key));
      }
      walk((node as Record<PropertyKey, unknown>)[key]);
    }
  };
  walk(output);
  return `${exactShape(output)} ${descriptors.join(',')}`;
}

type Outcome = { readonly shape: string } | { readonly issues: unknown };

function outcome(render: () => unknown): Outcome {
  try {
    return { shape: fullShape(render()) };
  } catch (error) {
    if (error instanceof RenderError) return { issues: error.issues };
    throw error;
  }
}

const pwned = (): unknown => (globalThis as Record<string, unknown>)['pwned'];

afterEach(() => {
  delete (globalThis as Record<string, unknown>)['pwned'];
});

describe('generated code and interpreter agree', () => {
  test('same output — keys, order, prototypes, -0 — or the same issues, for hostile templates and values', () => {
    const arbitrary = fc.uniqueArray(hostileName, { minLength: 1, maxLength: 4 }).chain((pool) =>
      fc.record({
        pool: fc.constant(pool),
        spec: specArbitrary(pool, hostileText),
        values: fc.tuple(...pool.map(() => value)),
        strict: fc.boolean(),
        extra: fc.option(fc.tuple(hostileName, value), { nil: undefined }),
        // Values without a prototype take both fast resolvers too.
        bare: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(arbitrary, ({ pool, spec, values: list, strict, extra, bare }) => {
        const values: Record<string, unknown> = bare ? (Object.create(null) as Record<string, unknown>) : {};
        for (const [index, name] of pool.entries()) defineOwn(values, name, list[index]);
        if (extra !== undefined && !Object.hasOwn(values, extra[0])) defineOwn(values, extra[0], extra[1]);
        const template = templateOf(specToTemplate(spec), pool) as unknown as PassTemplate;
        const generated = compileTemplate(template, { codegen: true, strict });
        const interpreted = compileTemplate(template, { codegen: false, strict });
        const expected = outcome(() => interpreted.render(values));
        expect(outcome(() => generated.render(values))).toStrictEqual(expected);
        // Twice: the second render runs the now-warm paths and must not share objects with the first.
        const [first, second] = [generated.render.bind(generated), generated.render.bind(generated)];
        if ('shape' in expected) expect(first(values)).not.toBe(second(values));
        expect(pwned()).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  });

  test('the generator is really used for these templates (no silent fallback)', () => {
    fc.assert(
      fc.property(specArbitrary(['a', 'b'], hostileText), (spec) => {
        expect(generatePlan(planBody(specToTemplate(spec) as JsonValue))).toBeTypeOf('function');
      }),
      { numRuns: Math.min(RUNS, 300) },
    );
  });
});

describe('nothing from a template or a value becomes code', () => {
  const breakouts = [
    '"]});globalThis.pwned=1;({"',
    "'});globalThis.pwned=1;({'",
    '\\"});globalThis.pwned=1;//',
    '\u2028globalThis.pwned=1//',
    '*/globalThis.pwned=1/*',
    '`+(globalThis.pwned=1)+`',
    '</script><script>globalThis.pwned=1</script>',
    '"+(globalThis.pwned=1)+"',
  ];

  test.each(breakouts)('%j as a key, a constant, a placeholder name and a value is data', (attack) => {
    // A valid name: no `$ { }`, no whitespace at either end.
    const name = `n${attack.replaceAll('$', '¤').replaceAll('{', '(').replaceAll('}', ')')}n`;
    const body = { [attack]: attack, list: [attack, 1, `${attack} \${${name}}`], whole: `\${${name}}`, ['__proto__']: attack };
    Object.defineProperty(body, '__proto__', { value: { [attack]: `\${${name}}` }, enumerable: true, writable: true, configurable: true });
    const template = templateOf(body, [name]) as unknown as PassTemplate;
    const values = { [name]: attack };
    const out = compileTemplate(template, { codegen: true }).render(values) as { userInfo: { body: Record<string, unknown> } };
    expect(pwned()).toBeUndefined();
    const rendered = out.userInfo.body;
    expect(rendered[attack]).toBe(attack);
    expect(rendered['list']).toStrictEqual([attack, 1, `${attack} ${attack}`]);
    expect(rendered['whole']).toBe(attack);
    expect(Object.getPrototypeOf(rendered)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(rendered, '__proto__')?.value).toStrictEqual({ [attack]: attack });
    expect(fullShape(out)).toBe(fullShape(compileTemplate(template, { codegen: false }).render(values)));
  });

  test('arbitrary text as keys, constants and names never runs', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 30 }), (key, text) => {
        const literal = text.replaceAll('$', '¤');
        const template = templateOf({ [key]: literal, k: [literal, '${n}'] }, ['n']) as unknown as PassTemplate;
        const out = compileTemplate(template, { codegen: true }).render({ n: text }) as { userInfo: { body: unknown } };
        expect(pwned()).toBeUndefined();
        const expected: Record<string, unknown> = {};
        defineOwn(expected, key, literal);
        defineOwn(expected, 'k', [literal, text]);
        expect(exactShape(out.userInfo.body)).toBe(exactShape(expected));
      }),
      { numRuns: RUNS },
    );
  });
});
