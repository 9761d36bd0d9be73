import { afterEach, describe, expect, test, vi } from 'vitest';
import { compileTemplate, RenderError, type PassTemplate } from '../../src/index.js';
import { generatePlan, generateSource, numberLiteral, stringLiteral, type FunctionFactory } from '../../src/template/codegen.js';
import { interpretPlan } from '../../src/template/interpret.js';
import { planBody } from '../../src/template/plan.js';
import type { JsonValue } from '../../src/types.js';
import { exactShape, templateOf } from '../arbitraries.js';
import { eventBody, eventTicket, eventValues } from '../fixtures.js';

// The shared reference workload: the spec's event ticket, its values, and what it renders to.
const reference = eventTicket;
const referenceValues = eventValues;
const referenceOutput = eventBody;

function build(body: unknown, slots: readonly unknown[], options?: Parameters<typeof generatePlan>[1]): unknown {
  const builder = generatePlan(planBody(body as JsonValue), options);
  if (builder === undefined) throw new Error('no generated builder');
  return builder(slots);
}

function nested(depth: number): JsonValue {
  let body: JsonValue = '${a}';
  for (let level = 0; level < depth; level++) body = level % 2 === 0 ? [body] : { k: body };
  return body;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('generatePlan', () => {
  test('builds the body as literals, with slots in place', () => {
    const plan = planBody(reference.description as unknown as JsonValue);
    const source = generateSource(plan) ?? '';
    expect(source).toContain('"format":"PKBarcodeFormatPDF417"');
    expect(source).toContain('"Row "+String(s[');
    expect(source).not.toContain('new Function');
    const slots = plan.names.map((use) => referenceValues[use.name as keyof typeof referenceValues]);
    expect(generatePlan(plan)?.(slots)).toStrictEqual(referenceOutput);
  });

  test('`__proto__` is written as a computed key: an own property, the prototype untouched', () => {
    const body = JSON.parse('{"__proto__": {"polluted": "${a}"}, "k": 1}') as JsonValue;
    expect(generateSource(planBody(body))).toContain('["__proto__"]:');
    const out = build(body, ['x']) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toStrictEqual(['__proto__', 'k']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toStrictEqual({ polluted: 'x' });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  test('-0, huge, tiny and negative numbers keep their value', () => {
    const body = { a: -0, b: 1e21, c: 5e-324, d: -1.5, e: [-0, -2], f: 0 };
    const out = build(body, []) as typeof body;
    expect(Object.is(out.a, -0)).toBe(true);
    expect(Object.is(out.e[0], -0)).toBe(true);
    expect(out).toStrictEqual(body);
    expect(numberLiteral(-0)).toBe('(-0)');
    expect(numberLiteral(Number.NaN)).toBe('(0/0)');
    expect(numberLiteral(-Infinity)).toBe('(-1/0)');
  });

  test('strings are JSON literals with U+2028 and U+2029 escaped', () => {
    expect(stringLiteral('a"\\\u2028\u2029</script>')).toBe('"a\\"\\\\\\u2028\\u2029</script>"');
  });

  test('whole values are deep copies; text slots use String()', () => {
    const value = { list: [1, { x: true }] };
    const out = build({ whole: '${v}', text: 'n=${n}' }, [value, -0]) as { whole: typeof value; text: string };
    expect(out.whole).toStrictEqual(value);
    expect(out.whole).not.toBe(value);
    expect(out.whole.list[1]).not.toBe(value.list[1]);
    expect(out.text).toBe('n=0');
  });

  test('a wide body is split into small functions and still gives what the interpreter gives', () => {
    // Alternating key orders: no run of same-shaped fields, so every field is a literal.
    const backFields = Array.from({ length: 3000 }, (_, index) =>
      index % 2 === 0
        ? { key: `f${index}`, label: `L ${index}`, value: `v \${p${index % 7}}` }
        : { key: `f${index}`, value: `v \${p${index % 7}}`, label: `L ${index}` },
    );
    const wide = Object.fromEntries(Array.from({ length: 300 }, (_, index) => [`k${index}`, index % 2 === 0 ? `\${p${index % 7}}` : index]));
    const body = { backFields, wide } as unknown as JsonValue;
    const plan = planBody(body);
    const source = generateSource(plan) ?? '';
    const functions = source.match(/function f\d+\(s\)\{[\s\S]*?\}(?=function|var |return\{)/g) ?? [];
    expect(functions.length).toBeGreaterThan(20);
    const slots = plan.names.map((_, index) => `value ${index}`);
    expect(exactShape(generatePlan(plan)?.(slots))).toBe(exactShape(interpretPlan(plan.root)(slots)));
  });

  test('runs of same-shaped fields are one loop over columns, and give what the interpreter gives', () => {
    const field = (index: number): JsonValue => ({ key: `f${index}`, label: `Label ${index}`, value: `Value \${p${index % 100}}` });
    const backFields: JsonValue[] = Array.from({ length: 10_000 }, (_, index) => field(index));
    const mixed: JsonValue[] = [
      'first',
      { nested: ['${p1}'] },
      ...Array.from(
        { length: 9 },
        (_, index): JsonValue => ({ key: 'same', n: index % 3 === 0 ? -0 : index, whole: `\${p${index}}`, t: `\${p1}-\${p2}:\${p${index}}!` }),
      ),
      '${p3}',
      ...Array.from({ length: 8 }, (_, index): JsonValue => ({ a: `x\${p${index}}`, b: `\${p2}\${p3}` })),
      ...Array.from({ length: 8 }, (_, index): JsonValue => ({ ['__proto__']: `\${p${index}}`, c: index })),
      ...Array.from({ length: 7 }, (_, index): JsonValue => ({ short: index })),
      7,
    ];
    const body = { backFields, mixed } as unknown as JsonValue;
    const plan = planBody(body);
    const source = generateSource(plan) ?? '';
    expect(source.length).toBeLessThan(20_000);
    expect(source).toContain('for(var i=0;i<10000;i++)');
    const slots = plan.names.map((name, index) => (name.name === 'p5' ? { deep: [1, { x: null }] } : index % 3 === 0 ? index : `value ${index}`));
    const generated = generatePlan(plan)?.(slots);
    expect(exactShape(generated)).toBe(exactShape(interpretPlan(plan.root)(slots)));
    const out = generated as { backFields: { value: string }[]; mixed: unknown[] };
    expect(out.backFields[9999]).toStrictEqual({ key: 'f9999', label: 'Label 9999', value: `Value ${String(slots[99])}` });
    expect(out.mixed.length).toBe(mixed.length);
  });

  test('above the size limit it returns undefined (the interpreter takes over)', () => {
    const plan = planBody({ text: 'x'.repeat(5000) });
    expect(generatePlan(plan, { maxSource: 4000 })).toBeUndefined();
    expect(generatePlan(plan, { maxSource: 8000 })).toBeTypeOf('function');
  });

  test('above the depth limit it returns undefined, without recursing further', () => {
    const shallow = planBody(nested(50));
    expect(generatePlan(shallow)?.(['v'])).toStrictEqual(interpretPlan(shallow.root)(['v']));
    expect(generatePlan(planBody(nested(101)))).toBeUndefined();
    expect(generatePlan(planBody(nested(1000)))).toBeUndefined();
  });

  test('when the factory refuses (CSP, edge worker), it returns undefined', () => {
    const refuse: FunctionFactory = () => {
      throw new EvalError('Code generation from strings disallowed for this context');
    };
    expect(generatePlan(planBody({ a: '${a}' }), { factory: refuse })).toBeUndefined();
  });
});

describe('compileTemplate and code generation', () => {
  test('codegen: false never generates code; both paths render the same', () => {
    const factory = vi.fn(Function);
    vi.stubGlobal('Function', factory);
    const interpreted = compileTemplate(reference, { codegen: false }).render(referenceValues);
    expect(factory).not.toHaveBeenCalled();
    const generated = compileTemplate(reference).render(referenceValues);
    expect(factory).toHaveBeenCalledTimes(1);
    expect(interpreted).toStrictEqual(referenceOutput);
    expect(exactShape(generated)).toBe(exactShape(interpreted));
  });

  test('where `new Function` throws, compile falls back to the interpreter, once asked', () => {
    const refused = vi.fn(function refuse(): never {
      throw new EvalError("Refused to evaluate a string as JavaScript because 'unsafe-eval' is not allowed");
    });
    vi.stubGlobal('Function', refused);
    const first = compileTemplate(reference);
    expect(first.render(referenceValues)).toStrictEqual(referenceOutput);
    expect(compileTemplate(reference).render(referenceValues)).toStrictEqual(referenceOutput);
    // A refusal may send a CSP violation report: it is not asked again.
    expect(refused).toHaveBeenCalledTimes(1);
    expect(() => first.render({ eventName: 'x', seat: '1' } as unknown as typeof referenceValues)).toThrow(RenderError);
  });

  test('a template too large to generate renders through the interpreter', () => {
    const text = `\${a}${'x'.repeat(300 * 1024)}`;
    const template = templateOf({ text }, ['a']) as unknown as PassTemplate;
    const out = compileTemplate(template).render({ a: 'A' }) as { userInfo: { body: { text: string } } };
    expect(out.userInfo.body.text.length).toBe(text.length - 4 + 1);
  });
});

describe('the fast value path gives the same results as the checking path', () => {
  const template = templateOf({ a: '${a}', t: 'x ${b}' }, ['a', 'b']) as unknown as PassTemplate;
  const paths = [true, false].map((codegen) => compileTemplate(template, { codegen }));
  const codes = (values: unknown, strict = false): unknown[] =>
    [true, false].map((codegen) => {
      try {
        compileTemplate(template, { codegen, strict }).render(values as Record<string, unknown>);
        return 'ok';
      } catch (error) {
        return error instanceof RenderError ? error.issues.map((issue) => `${issue.code} ${issue.placeholder ?? ''}`) : error;
      }
    });

  test('values from the prototype chain are missing, also when Object.prototype is polluted', () => {
    expect(codes(Object.create({ a: 'A', b: 'B' }))).toStrictEqual([
      ['missing-value a', 'missing-value b'],
      ['missing-value a', 'missing-value b'],
    ]);
    const prototype = Object.prototype as Record<string, unknown>;
    prototype['a'] = 'polluted';
    try {
      expect(codes({ b: 'B' })).toStrictEqual([['missing-value a'], ['missing-value a']]);
      expect(paths[0]?.render({ a: 'own', b: 'B' })).toStrictEqual(paths[1]?.render({ a: 'own', b: 'B' }));
    } finally {
      delete prototype['a'];
    }
  });

  test("a getter on the values' prototype is never called; an own `__proto__` member does not pass for a plain prototype", () => {
    const read: string[] = [];
    class Values {
      get a(): string {
        read.push('a');
        return 'A';
      }
    }
    const instance = Object.assign(new Values(), { b: 'B' });
    expect(codes(instance)).toStrictEqual([['missing-value a'], ['missing-value a']]);
    expect(read).toStrictEqual([]);
    // An own `__proto__` that claims Object.prototype, over a prototype that has `a`.
    const disguised = Object.create(
      { a: 'inherited' },
      {
        ['__proto__']: { value: Object.prototype, enumerable: true },
        b: { value: 'B', enumerable: true },
      },
    ) as Record<string, unknown>;
    expect(codes(disguised)).toStrictEqual([['missing-value a'], ['missing-value a']]);
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 'A', b: 'B' });
    expect(paths[0]?.render(bare)).toMatchObject({ userInfo: { body: { a: 'A', t: 'x B' } } });
  });

  test('null-prototype values, own undefined, NaN, objects in text, strict unknown keys', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: [1], b: 2 });
    expect(paths[0]?.render(bare)).toStrictEqual(paths[1]?.render(bare));
    expect(codes({ a: undefined, b: 'B' })).toStrictEqual([['invalid-value a'], ['invalid-value a']]);
    expect(codes({ a: 'A', b: Number.NaN })).toStrictEqual([['invalid-value b'], ['invalid-value b']]);
    expect(codes({ a: 'A', b: {} })).toStrictEqual([['invalid-value b'], ['invalid-value b']]);
    expect(codes({ a: 'A', b: 'B', c: 1 }, true)).toStrictEqual([['unknown-value c'], ['unknown-value c']]);
    expect(codes({ a: 'A', b: 'B', c: 1 })).toStrictEqual(['ok', 'ok']);
  });

  test('names Object.prototype also has (toString, constructor) are read as own values', () => {
    const named = templateOf({ a: '${toString}', b: '${constructor}' }, ['toString', 'constructor']) as unknown as PassTemplate;
    for (const codegen of [true, false]) {
      const compiled = compileTemplate(named, { codegen });
      expect(compiled.render({ toString: 'T', constructor: 'C' })).toMatchObject({ userInfo: { body: { a: 'T', b: 'C' } } });
      expect(() => compiled.render({})).toThrow(RenderError);
    }
  });
});
