import { RenderError } from '../errors.js';
import type { Issue } from '../issues.js';
import { jsonProblems } from './json.js';
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
export function resolveValues(
  names: readonly PlanName[],
  values: unknown,
  declared: ReadonlySet<string>,
  strict: boolean,
): unknown[] {
  if (typeof values !== 'object' || values === null) {
    const got = values === null ? 'null' : typeof values;
    throw new RenderError('Cannot render', [
      { severity: 'error', code: 'invalid-value', message: `Values must be an object, got ${got}`, path: '' },
    ]);
  }
  let fast = lastNames === names ? lastResolver : undefined;
  if (fast === undefined) {
    fast = fastResolvers.get(names);
    if (fast !== undefined) {
      lastNames = names;
      lastResolver = fast;
    }
  }
  if (fast !== undefined) {
    const slots = fast(values);
    if (slots !== undefined && (!strict || !hasUnknownKey(values, declared))) return slots;
  }
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
    const problem = valueProblem(value, use);
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
    case 'object': {
      if (value === null) return 'null is not a value';
      if (use.inText) return `${Array.isArray(value) ? 'an array' : 'an object'} cannot stand inside text`;
      const problem = jsonProblems(value)[0];
      return problem === undefined ? undefined : `${problem.why}${problem.path === '' ? '' : ` at ${problem.path}`}`;
    }
    default:
      return `a ${typeof value} is not a value`;
  }
}

function located(use: PlanName, code: Issue['code'], message: string): Issue {
  return { severity: 'error', code, message, path: use.path, placeholder: use.name, offset: use.offset };
}
