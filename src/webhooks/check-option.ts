import { WebhookError } from './webhook-error.js';

/** Longest delay a timer can take: `setTimeout` fires at once for anything above 2³¹−1 ms. */
export const MAX_TIMER_MS: number = 2 ** 31 - 1;

function describe(value: unknown): string {
  return typeof value === 'number' ? String(value) : typeof value;
}

// Every numeric option goes through one of these, so NaN (which fails every
// comparison and so slips past `x < min` checks), Infinity, negatives and
// fractions cannot switch a limit off by accident.

/** `value` when it is an integer in [min, max]; `invalid-argument` otherwise. */
export function checkInteger(name: string, value: unknown, min: number, max: number = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
    throw new WebhookError('invalid-argument', `${name} must be an integer ${range}, not ${describe(value)}`);
  }
  return value;
}

/** `value` when it is a finite number ≥ 0; `invalid-argument` otherwise. */
export function checkNonNegative(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new WebhookError('invalid-argument', `${name} must be a finite number ≥ 0, not ${describe(value)}`);
  }
  return value;
}

/** A timer's delay in milliseconds: an integer from 1 to 2³¹−1. */
export function checkTimeout(name: string, value: unknown): number {
  return checkInteger(name, value, 1, MAX_TIMER_MS);
}

/** `value` when it is `undefined` or a boolean; `invalid-argument` otherwise (`'false'` is truthy). */
export function checkFlag(name: string, value: unknown): boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') {
    throw new WebhookError('invalid-argument', `${name} must be true or false, not ${describe(value)}`);
  }
  return value;
}

/** `value` when it is `undefined` or a function; `invalid-argument` otherwise. */
export function checkFunction<TFunction>(name: string, value: TFunction | undefined): TFunction | undefined {
  if (value !== undefined && typeof value !== 'function') {
    throw new WebhookError('invalid-argument', `${name} must be a function, not ${describe(value)}`);
  }
  return value;
}
