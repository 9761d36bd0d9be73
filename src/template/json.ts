import { pointerOf } from '../issues.js';

/** Deepest nesting a template body or a value may have: deeper input is refused, never a stack overflow. */
export const MAX_DEPTH = 64;

/** Something in a value that JSON cannot hold, and where. */
export interface JsonProblem {
  readonly path: string;
  readonly why: string;
}

/**
 * Walks a value that should be JSON, calling `visit` on every string (with a
 * function that gives its pointer, built only when asked for), and lists
 * what is not JSON: functions, `undefined`, symbols, bigints, non-finite
 * numbers, class instances, cycles, nesting deeper than {@link MAX_DEPTH}.
 */
export function jsonProblems(value: unknown, path = '', visit?: (text: string, path: () => string) => void): JsonProblem[] {
  const problems: JsonProblem[] = [];
  // Where the walk is; a pointer is built only for a string visited or a problem found.
  const trail: (string | number)[] = [];
  const here = (): string => pointerOf(path, trail);
  // The objects being walked, outermost first: at most MAX_DEPTH of them, so
  // a cycle check is a short scan, cheaper than a Set's add and delete per object.
  const open: object[] = [];
  const walk = (node: unknown, depth: number): void => {
    switch (typeof node) {
      case 'string':
        if (visit !== undefined) visit(node, here);
        return;
      case 'boolean':
        return;
      case 'number':
        if (!Number.isFinite(node)) problems.push({ path: here(), why: `${node} is not a finite number` });
        return;
      case 'object':
        break;
      default:
        problems.push({ path: here(), why: `a ${typeof node} is not a JSON value` });
        return;
    }
    if (node === null) return;
    const proto: unknown = Object.getPrototypeOf(node);
    const isArray = Array.isArray(node);
    if (!isArray && proto !== Object.prototype && proto !== null) {
      return void problems.push({ path: here(), why: 'only plain objects and arrays are JSON' });
    }
    if (open.includes(node)) return void problems.push({ path: here(), why: 'the value contains itself (a cycle)' });
    if (depth >= MAX_DEPTH) return void problems.push({ path: here(), why: `nesting deeper than ${MAX_DEPTH} levels` });
    open.push(node);
    if (isArray) {
      for (let index = 0; index < node.length; index++) {
        trail.push(index);
        walk(node[index], depth + 1);
        trail.pop();
      }
    } else {
      const keys = Object.keys(node);
      for (let index = 0; index < keys.length; index++) {
        const key = keys[index] as string;
        trail.push(key);
        walk((node as Record<string, unknown>)[key], depth + 1);
        trail.pop();
      }
    }
    open.pop();
  };
  walk(value, 0);
  return problems;
}

/**
 * Sets an own, enumerable, writable property — also for `__proto__`, where a
 * plain assignment would change the object's prototype instead.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** A deep copy of a value that has no {@link jsonProblems}. */
export function copyJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwn(out, key, copyJson((value as Record<string, unknown>)[key]));
  return out;
}

/** What {@link copyCheckedJson} gives: the copy, and the first problem found (then the copy is incomplete). */
export interface CheckedCopy {
  readonly copy: unknown;
  readonly problem: JsonProblem | undefined;
}

/**
 * A deep copy of a value, checked while it is made: each member is read
 * once, and what is checked is what is copied. Checking first and copying
 * after would read every member twice, and a getter (or a proxy) could then
 * hand the copy something else than the check saw. Stops at the first
 * problem (see {@link jsonProblems} for what a problem is).
 */
export function copyCheckedJson(value: unknown): CheckedCopy {
  const trail: (string | number)[] = [];
  const open: object[] = [];
  let problem: JsonProblem | undefined;
  const fail = (why: string): undefined => {
    problem ??= { path: pointerOf('', trail), why };
    return undefined;
  };
  const copy = (node: unknown, depth: number): unknown => {
    switch (typeof node) {
      case 'string':
      case 'boolean':
        return node;
      case 'number':
        return Number.isFinite(node) ? node : fail(`${node} is not a finite number`);
      case 'object':
        break;
      default:
        return fail(`a ${typeof node} is not a JSON value`);
    }
    if (node === null) return null;
    const isArray = Array.isArray(node);
    const proto: unknown = Object.getPrototypeOf(node);
    if (!isArray && proto !== Object.prototype && proto !== null) return fail('only plain objects and arrays are JSON');
    if (open.includes(node)) return fail('the value contains itself (a cycle)');
    if (depth >= MAX_DEPTH) return fail(`nesting deeper than ${MAX_DEPTH} levels`);
    open.push(node);
    let out: unknown[] | Record<string, unknown>;
    if (isArray) {
      const length = node.length;
      const items: unknown[] = new Array(length);
      for (let index = 0; index < length && problem === undefined; index++) {
        trail.push(index);
        items[index] = copy(node[index], depth + 1);
        trail.pop();
      }
      out = items;
    } else {
      const members: Record<string, unknown> = {};
      const keys = Object.keys(node);
      for (let index = 0; index < keys.length && problem === undefined; index++) {
        const key = keys[index] as string;
        trail.push(key);
        setOwn(members, key, copy((node as Record<string, unknown>)[key], depth + 1));
        trail.pop();
      }
      out = members;
    }
    open.pop();
    return out;
  };
  const result = copy(value, 0);
  return { copy: result, problem };
}
