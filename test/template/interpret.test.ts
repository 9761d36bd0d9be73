import { afterEach, describe, expect, test } from 'vitest';
import { compileTemplate, RenderError, type Issue, type PassTemplate } from '../../src/index.js';
import { interpretPlan } from '../../src/template/interpret.js';
import { planBody } from '../../src/template/plan.js';
import type { JsonValue } from '../../src/types.js';
import { exactShape, templateOf } from '../arbitraries.js';
import { eventBody, eventTicket, eventValues } from '../fixtures.js';

const interpreted = (body: unknown, names: readonly string[]): ((values: unknown) => unknown) => {
  const compiled = compileTemplate(templateOf(body, names) as unknown as PassTemplate, { codegen: false });
  return (values) => (compiled.render(values as never) as { userInfo: { body: unknown } }).userInfo.body;
};

function issuesOf(run: () => unknown): readonly { code: Issue['code']; placeholder: string | undefined }[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RenderError);
    return (error as RenderError).issues.map(({ code, placeholder }) => ({ code, placeholder }));
  }
  throw new Error('expected a RenderError');
}

function defineOwn(target: object, key: string, value: unknown, enumerable = true): void {
  Object.defineProperty(target, key, { value, enumerable, writable: true, configurable: true });
}

const prototype = Object.prototype as Record<string, unknown>;

afterEach(() => {
  delete prototype['seat'];
  delete prototype['hidden'];
});

describe('interpreter: reading the values', () => {
  const render = interpreted({ a: '${seat}', b: 'Row ${hidden}' }, ['seat', 'hidden']);

  test('plain, null-prototype, class-instance and getter values all render', () => {
    expect(render({ seat: '1', hidden: 2 })).toStrictEqual({ a: '1', b: 'Row 2' });
    expect(render(Object.assign(Object.create(null) as object, { seat: true, hidden: false }))).toStrictEqual({ a: true, b: 'Row false' });
    class Values {
      seat = 'x';
      hidden = 'y';
    }
    expect(render(new Values())).toStrictEqual({ a: 'x', b: 'Row y' });
    expect(
      render({
        get seat() {
          return 's';
        },
        hidden: 'h',
      }),
    ).toStrictEqual({ a: 's', b: 'Row h' });
    const nonEnumerable = { seat: 'e' };
    defineOwn(nonEnumerable, 'hidden', 'n', false);
    expect(render(nonEnumerable)).toStrictEqual({ a: 'e', b: 'Row n' });
  });

  test('a value only on the prototype chain is missing, even on a polluted Object.prototype', () => {
    expect(issuesOf(() => render(Object.assign(Object.create({ seat: 'inherited' }) as object, { hidden: 'h' })))).toStrictEqual([
      { code: 'missing-value', placeholder: 'seat' },
    ]);
    prototype['seat'] = 'polluted';
    defineOwn(prototype, 'hidden', 'polluted too', false);
    expect(issuesOf(() => render({}))).toStrictEqual([
      { code: 'missing-value', placeholder: 'seat' },
      { code: 'missing-value', placeholder: 'hidden' },
    ]);
    // Own values still win over the polluted ones.
    expect(render({ seat: 'own', hidden: 'own too' })).toStrictEqual({ a: 'own', b: 'Row own too' });
  });

  test('names Object.prototype has (toString, constructor, __proto__) are read as own or reported missing', () => {
    const names = interpreted({ t: '${toString}', c: 'c ${constructor}', p: '${__proto__}' }, ['toString', 'constructor', '__proto__']);
    const values = { toString: 'T', constructor: 'C' };
    defineOwn(values, '__proto__', 'P');
    expect(names(values)).toStrictEqual({ t: 'T', c: 'c C', p: 'P' });
    expect(issuesOf(() => names({}))).toStrictEqual([
      { code: 'missing-value', placeholder: 'toString' },
      { code: 'missing-value', placeholder: 'constructor' },
      { code: 'missing-value', placeholder: '__proto__' },
    ]);
  });

  test('non-finite numbers, functions and objects inside text are invalid values', () => {
    expect(issuesOf(() => render({ seat: Number.NaN, hidden: { x: 1 } }))).toStrictEqual([
      { code: 'invalid-value', placeholder: 'seat' },
      { code: 'invalid-value', placeholder: 'hidden' },
    ]);
    expect(issuesOf(() => render({ seat: () => 1, hidden: -Infinity }))).toStrictEqual([
      { code: 'invalid-value', placeholder: 'seat' },
      { code: 'invalid-value', placeholder: 'hidden' },
    ]);
  });

  test('more names than readers: every value lands in its place', () => {
    const names = Array.from({ length: 40 }, (_, index) => `n${index}`);
    const body = Object.fromEntries(names.map((name) => [name, `<\${${name}}>`]));
    const values = Object.fromEntries(names.map((name, index) => [name, index]));
    expect(interpreted(body, names)(values)).toStrictEqual(Object.fromEntries(names.map((name, index) => [name, `<${index}>`])));
  });

  test('a getter that renders the same template meanwhile does not disturb the outer render', () => {
    let depth = 0;
    const values = {
      get seat(): string {
        depth++;
        const inner = depth === 1 ? (render({ seat: 'inner', hidden: 'inner' }) as { a: string }).a : 'none';
        return `outer(${inner})`;
      },
      hidden: 'h',
    };
    expect(render(values)).toStrictEqual({ a: 'outer(inner)', b: 'Row h' });
  });
});

describe('interpreter: building the body', () => {
  test('renders the reference template, twice, into objects that share nothing', () => {
    const compiled = compileTemplate(eventTicket, { codegen: false });
    const first = compiled.render(eventValues) as unknown as typeof eventBody;
    first.generic.secondaryFields[0]!.label = 'changed';
    const second = compiled.render(eventValues);
    expect(second).toStrictEqual(eventBody);
    expect(second).not.toBe(first);
  });

  test('objects with zero to four members to write, `__proto__` among them, keep keys, order and prototypes', () => {
    const body: Record<string, unknown> = {};
    for (let count = 0; count <= 4; count++) {
      for (const proto of [false, true]) {
        const object: Record<string, unknown> = { first: 1 };
        for (let member = 0; member < count; member++) {
          defineOwn(object, proto && member === count - 1 ? '__proto__' : `m${member}`, member % 2 === 0 ? '${v}' : 'at ${w}');
        }
        defineOwn(object, 'last', 'end');
        defineOwn(body, `${count}${proto ? 'p' : ''}`, object);
      }
    }
    const out = interpreted(body, ['v', 'w'])({ v: { deep: [1] }, w: 2 }) as Record<string, Record<string, unknown>>;
    const expected: Record<string, unknown> = {};
    for (const [name, object] of Object.entries(body)) {
      const built: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(object as Record<string, unknown>)) {
        defineOwn(built, key, value === '${v}' ? { deep: [1] } : value === 'at ${w}' ? 'at 2' : value);
      }
      defineOwn(expected, name, built);
    }
    expect(exactShape(out)).toBe(exactShape(expected));
    expect(Object.getPrototypeOf(out['2p'])).toBe(Object.prototype);
    // A whole object value is copied, never shared.
    const values = { v: { deep: [1] }, w: 2 };
    const again = interpreted(body, ['v', 'w'])(values) as Record<string, Record<string, unknown>>;
    expect(again['1']?.['m0']).not.toBe(values.v);
  });

  test('arrays of zero to four built items, and mixed with constants', () => {
    const render = interpreted(
      { a0: [], a1: ['${v}'], a2: ['${v}', 'x${v}'], a3: [{ k: '${v}' }, '${v}', ['${v}']], a4: ['${v}', '${v}', '${v}', '${v}'], mixed: [1, '${v}', null] },
      ['v'],
    );
    expect(render({ v: 'V' })).toStrictEqual({
      a0: [],
      a1: ['V'],
      a2: ['V', 'xV'],
      a3: [{ k: 'V' }, 'V', ['V']],
      a4: ['V', 'V', 'V', 'V'],
      mixed: [1, 'V', null],
    });
  });

  test('interpretPlan gives the same for the same slots, every time', () => {
    const plan = planBody({ o: { a: '${x}', b: '${y} ${x}', c: ['${y}'] } } as JsonValue);
    const build = interpretPlan(plan.root);
    const first = build(['1', 2]);
    expect(build(['1', 2])).toStrictEqual({ o: { a: '1', b: '2 1', c: [2] } });
    expect(build(['1', 2])).not.toBe(first);
  });
});
