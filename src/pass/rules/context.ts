import type { Issue, IssueCode } from '../../issues.js';

/** What every rule needs: where issues go, and which strings hold placeholders. */
export interface Context {
  readonly issues: Issue[];
  /** `true` for a string whose final value is unknown (it holds placeholders). */
  readonly isDynamic: (text: string) => boolean;
  /** Warn `hex-color` for `#rgb`/`#rrggbb` (a pass); a template's are converted by buildPass. */
  readonly warnHexColors: boolean;
}

/** A JSON object (not an array, not null). */
export type Dict = { readonly [key: string]: unknown };

/** The kinds of JSON value a member may be required to be. */
export type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'text';

const KIND_TEXT: { readonly [K in Kind]: string } = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  text: 'a string or a number',
};

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
 * Whether `value` is of `kind`, reporting `invalid-type` when it is not.
 * A dynamic string is neither reported nor usable: `false` without an issue.
 */
export function expectKind(context: Context, value: unknown, kind: Kind, path: string, name: string): boolean {
  if (hasKind(value, kind)) return typeof value !== 'string' || !context.isDynamic(value);
  if (isDynamic(context, value)) return false;
  report(context, 'error', 'invalid-type', path, `${name} must be ${KIND_TEXT[kind]}, not ${describe(value)}`);
  return false;
}

export function report(context: Context, severity: Issue['severity'], code: IssueCode, path: string, message: string): void {
  context.issues.push({ severity, code, message, path });
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
