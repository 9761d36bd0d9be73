import { RenderError } from '../errors.js';
import type { Issue } from '../issues.js';
import { copyCheckedJson } from './json.js';
import type { PlanName } from './plan.js';

/**
 * Reads the slots of a template in one go when every value is a string, a
 * finite number or a boolean, found as an own property; `undefined` otherwise,
 * and {@link resolveValues} takes its checking path, which explains why.
 */
export type FastResolver = (values: object) => unknown[] | undefined;

const fastResolvers = new WeakMap<readonly PlanName[], FastResolver>();
// The last one looked up: a service rendering one template in a loop skips the WeakMap.
let lastNames: readonly PlanName[] | undefined;
let lastResolver: FastResolver | undefined;

/** Lets {@link resolveValues} use `resolver` (generated for these names) for the common case. */
export function registerFastResolver(names: readonly PlanName[], resolver: FastResolver): void {
  fastResolvers.set(names, resolver);
}

/**
 * Reads each used name's value once (own properties only: the prototype chain
 * is never consulted) and checks it against how the template uses it. Throws
 * one {@link RenderError} listing every problem: all missing values at once.
 */
export function resolveValues(names: readonly PlanName[], values: unknown, declared: ReadonlySet<string>, strict: boolean): unknown[] {
  if (typeof values !== 'object' || values === null) {
    const got = values === null ? 'null' : typeof values;
    throw new RenderError('Cannot render', [{ severity: 'error', code: 'invalid-value', message: `Values must be an object, got ${got}`, path: '' }]);
  }
  let fast = lastNames === names ? lastResolver : undefined;
  if (fast === undefined) {
    fast = fastResolvers.get(names);
    if (fast === undefined) {
      // No generated resolver (the interpreter): one made of closures, made once.
      fast = closureResolver(names);
      fastResolvers.set(names, fast);
    }
    lastNames = names;
    lastResolver = fast;
  }
  const fastSlots = fast(values);
  if (fastSlots !== undefined && (!strict || !hasUnknownKey(values, declared))) return fastSlots;
  const slots: unknown[] = new Array(names.length);
  let issues: Issue[] | undefined;
  for (let index = 0; index < names.length; index++) {
    const use = names[index] as PlanName;
    if (!Object.hasOwn(values, use.name)) {
      (issues ??= []).push(located(use, 'missing-value', `No value for placeholder "${use.name}"`));
      continue;
    }
    const value: unknown = (values as Record<string, unknown>)[use.name];
    slots[index] = value;
    if (typeof value === 'string') continue; // the common case, without a call
    let problem: string | undefined;
    if (typeof value === 'object' && value !== null && !use.inText) {
      // Copied once, and the copy is what is checked and rendered: a getter
      // read a second time cannot put into the pass what the check never saw.
      const checked = copyCheckedJson(value);
      slots[index] = checked.copy;
      if (checked.problem !== undefined) problem = `${checked.problem.why}${checked.problem.path === '' ? '' : ` at ${checked.problem.path}`}`;
    } else {
      problem = valueProblem(value, use);
    }
    if (problem !== undefined) (issues ??= []).push(located(use, 'invalid-value', `Value of "${use.name}": ${problem}`));
  }
  if (strict) {
    for (const key of Object.keys(values)) {
      if (!declared.has(key)) {
        (issues ??= []).push({
          severity: 'error',
          code: 'unknown-value',
          message: `"${key}" is not a declared placeholder`,
          path: '',
          placeholder: key,
        });
      }
    }
  }
  if (issues !== undefined) throw new RenderError('Cannot render', issues);
  return slots;
}

/** Reads one name of `values`; `undefined` when `Object.prototype` has the name (then it may not be own). */
type Reader = (values: Record<string, unknown>, name: string) => unknown;

const OBJECT_PROTOTYPE = Object.prototype as Record<string, unknown>;

// Sixteen copies of one function, on purpose (as the copies in interpret.ts):
// V8 keeps type feedback per function literal, so one shared `values[name]`
// over every name goes megamorphic (a slow generic lookup, twice per name with
// the `Object.prototype` check); a copy that only ever reads one name keeps a
// fast named load, and its `Object.prototype` check folds to almost nothing.
const READERS: readonly Reader[] = [
  (values, name) => {
    const value = values[name];
    return OBJECT_PROTOTYPE[name] === undefined ? value : undefined;
  },
  (values, name) => {
    const value = values[name];
    return OBJECT_PROTOTYPE[name] === undefined ? value : undefined;
  },
  (values, name) => {
    const value = values[name];
    return OBJECT_PROTOTYPE[name] === undefined ? value : undefined;
  },
  (values, name) => {
    const value = values[name];
    return OBJECT_PROTOTYPE[name] === undefined ? value : undefined;
  },
  (values, name) => {
    const value = values[name];
    return OBJECT_PROTOTYPE[name] === undefined ? value : undefined;
  },
  (values, name) => {
    const value = values[name];
    return OBJECT_PROTOTYPE[name] === undefined ? value : undefined;
  },
  (values, name) => {
    const value = values[name];
    return OBJECT_PROTOTYPE[name] === undefined ? value : undefined;
  },
  (values, name) => {
    const value = values[name];
    return OBJECT_PROTOTYPE[name] === undefined ? value : undefined;
  },
  (values, name) => {
    const value = values[name];
    return OBJECT_PROTOTYPE[name] === undefined ? value : undefined;
  },
  (values, name) => {
    const value = values[name];
    return OBJECT_PROTOTYPE[name] === undefined ? value : undefined;
  },
  (values, name) => {
    const value = values[name];
    return OBJECT_PROTOTYPE[name] === undefined ? value : undefined;
  },
  (values, name) => {
    const value = values[name];
    return OBJECT_PROTOTYPE[name] === undefined ? value : undefined;
  },
  (values, name) => {
    const value = values[name];
    return OBJECT_PROTOTYPE[name] === undefined ? value : undefined;
  },
  (values, name) => {
    const value = values[name];
    return OBJECT_PROTOTYPE[name] === undefined ? value : undefined;
  },
  (values, name) => {
    const value = values[name];
    return OBJECT_PROTOTYPE[name] === undefined ? value : undefined;
  },
  (values, name) => {
    const value = values[name];
    return OBJECT_PROTOTYPE[name] === undefined ? value : undefined;
  },
];

// Which copy reads which name: the first names met get a copy each (a process
// usually renders a few templates); later ones share copies, as every name did before.
const readerOf = new Map<string, Reader>();

function readerFor(name: string): Reader {
  let reader = readerOf.get(name);
  if (reader === undefined) {
    if (readerOf.size < READERS.length) readerOf.set(name, (reader = READERS[readerOf.size] as Reader));
    else reader = READERS[name.length % READERS.length] as Reader;
  }
  return reader;
}

/**
 * A {@link FastResolver} without generated code, for the interpreter. Same
 * reasoning as the generated one (`resolver` in codegen.ts): when `values`'
 * prototype is `Object.prototype` or `null` and `Object.prototype` has no
 * such name, a value found on `values` is its own.
 */
function closureResolver(names: readonly PlanName[]): FastResolver {
  const keys = names.map((use) => use.name);
  const readers = keys.map(readerFor);
  const count = keys.length;
  return (values) => {
    const proto: unknown = Object.getPrototypeOf(values);
    if (proto !== OBJECT_PROTOTYPE && proto !== null) return undefined;
    const slots: unknown[] = new Array(count);
    for (let index = 0; index < count; index++) {
      const value = (readers[index] as Reader)(values as Record<string, unknown>, keys[index] as string);
      // `x - x === 0` is true exactly for finite numbers (NaN and ±Infinity give NaN).
      if (!(typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && value - value === 0))) return undefined;
      slots[index] = value;
    }
    return slots;
  };
}

function hasUnknownKey(values: object, declared: ReadonlySet<string>): boolean {
  for (const key of Object.keys(values)) if (!declared.has(key)) return true;
  return false;
}

function valueProblem(value: unknown, use: PlanName): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${value} is not a finite number`;
    case 'object':
      // A whole-value object is checked while it is copied (resolveValues).
      return value === null ? 'null is not a value' : `${Array.isArray(value) ? 'an array' : 'an object'} cannot stand inside text`;
    default:
      return `a ${typeof value} is not a value`;
  }
}

function located(use: PlanName, code: Issue['code'], message: string): Issue {
  return { severity: 'error', code, message, path: use.path, placeholder: use.name, offset: use.offset };
}
