import { type Issue, type IssueCode, pointerToken } from '../issues.js';
import type { SeenKeys } from './seen-keys.js';

/**
 * What every rule needs. The location of the value being checked is kept as a
 * stack of keys and turned into a JSON Pointer only when an issue is reported:
 * a valid pass then costs no string building at all.
 */
export interface Context {
  readonly issues: Issue[];
  /** `true` for a string whose final value is unknown (it holds placeholders). */
  readonly isDynamic: (text: string) => boolean;
  /** Warn `hex-color` for `#rgb`/`#rrggbb` (a pass); a template's are converted by buildPass. */
  readonly warnHexColors: boolean;
  /** The pointer of the checked body itself (`''` for a pass). */
  readonly prefix: string;
  /** Keys from the body down to the object being checked. */
  readonly stack: (string | number)[];
  /** Set when a complete pass is checked: its identifiers and web-service keys are checked too. */
  readonly pass: PassState | undefined;
  /** Whether `Object.prototype` has enumerable keys (someone polluted it): every `for…in` then checks ownership. */
  readonly polluted: boolean;
  /** The field keys of the style body being checked. */
  readonly seen: SeenKeys;
}

/** What the pass-level checks gather while the body's keys are walked. */
export interface PassState {
  readonly allowHttp: boolean;
  /** Bits of the pass-level keys present (see identity.ts). */
  present: number;
}

/** A member key: a property name, or an array index. */
export type Key = string | number;

/** A JSON object (not an array, not null). */
export type Dict = { readonly [key: string]: unknown };

/** The kinds of JSON value a member may be required to be. */
export type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'text';

/** How messages name each kind (`a string` …); the schema issue mapping uses it too. */
export const KIND_TEXT: { readonly [K in Kind]: string } = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  text: 'a string or a number',
};

export function createContext(prefix: string, isDynamic: (text: string) => boolean, warnHexColors: boolean, pass?: PassState): Context {
  const seen: SeenKeys = { depth: 0, keys: [], lists: [], indexes: [], index: undefined };
  return { issues: [], isDynamic, warnHexColors, prefix, stack: [], pass, polluted: hasEnumerableKeys(Object.prototype), seen };
}

function hasEnumerableKeys(value: object): boolean {
  for (const _ in value) return true;
  return false;
}

/**
 * Whether a `for…in` over `value` may yield keys that are not its own. The
 * rules walk members with `for…in` (much faster than `Object.keys` in V8) and
 * check ownership only when this is `true`: a class instance, a polluted
 * `Object.prototype`.
 */
export function mayInherit(context: Context, value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return context.polluted || (proto !== Object.prototype && proto !== null);
}

/** The pointer of the current object, or of its member `key`. */
export function pathOf(context: Context, key?: Key, depth: number = context.stack.length): string {
  let path = context.prefix;
  for (let index = 0; index < depth; index++) path += `/${pointerToken(context.stack[index] as Key)}`;
  return key === undefined ? path : `${path}/${pointerToken(key)}`;
}

/** How messages name member `key` of the current object: `label`, or `barcodes/0` for an element. */
export function nameOf(context: Context, key: Key): string {
  if (typeof key === 'string') return `\`${key}\``;
  const parent = context.stack[context.stack.length - 1];
  return parent === undefined ? `element ${key}` : `\`${String(parent)}/${key}\``;
}

export function isDict(value: unknown): value is Dict {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `value` is a string holding placeholders: every check on it waits until it is rendered. */
export function isDynamic(context: Context, value: unknown): boolean {
  return typeof value === 'string' && context.isDynamic(value);
}

export function hasKind(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isDict(value);
    case 'array':
      return Array.isArray(value);
    case 'text':
      return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
  }
}

/**
 * Whether member `key` (holding `value`) is of `kind`, reporting
 * `invalid-type` when it is not. A dynamic string is neither reported nor
 * usable: `false` without an issue.
 */
export function expectKind(context: Context, value: unknown, kind: Kind, key: Key): boolean {
  if (hasKind(value, kind)) return typeof value !== 'string' || !context.isDynamic(value);
  if (isDynamic(context, value)) return false;
  report(context, 'error', 'invalid-type', key, `${nameOf(context, key)} must be ${KIND_TEXT[kind]}, not ${describe(value)}`);
  return false;
}

/** Reports an issue at member `key` of the current object (or at the object itself). */
export function report(context: Context, severity: Issue['severity'], code: IssueCode, key: Key | undefined, message: string, offset?: number): void {
  const path = pathOf(context, key);
  context.issues.push(offset === undefined ? { severity, code, message, path } : { severity, code, message, path, offset });
}

/** A short, safe description of any value for a message (never throws for symbols or BigInts). */
export function describe(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
    case 'number':
    case 'boolean':
      return String(value);
    case 'bigint':
      return `the BigInt ${String(value)}n`;
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    case 'undefined':
      return 'undefined';
    default:
      return value === null ? 'null' : Array.isArray(value) ? 'an array' : 'an object';
  }
}

/** `name` in backticks, the way messages quote member names. */
export function quote(name: string): string {
  return `\`${name}\``;
}
