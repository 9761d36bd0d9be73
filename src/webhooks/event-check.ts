import { checkEventShape } from '../schema/check.js';
import { parseEventTime } from './timestamp.js';

/** What makes a value not an event: the JSON Pointer of the first bad member and why. */
export interface EventProblem {
  readonly path: string;
  readonly message: string;
}

/**
 * The first reason `value` is not an event object, or `undefined` when it is one.
 *
 * The shape is `event.schema.json`'s (see `checkEventShape`): `id`
 * UUID-shaped, `type` a non-empty string, `created` exactly
 * `YYYY-MM-DDTHH:MM:SSZ`, `data` an object whose members, for a known type,
 * are non-empty strings (only own properties count). On top of the schema,
 * `created` must name a real moment (no February 30). Extra members are
 * allowed (newer services may add some). Problems come in member order:
 * `id`, `type`, `created`, `data`, then `data`'s members (missing ones
 * first). Never throws.
 *
 * @example
 * ```ts
 * checkEvent({ id: 'x', type: 'pass.created', created: '…', data: {} });
 * // { path: '/id', message: '`id` must be a UUID-shaped string' }
 * ```
 */
export function checkEvent(value: unknown): EventProblem | undefined {
  const [issue] = checkEventShape(value);
  if (issue !== undefined) return { path: issue.path, message: issue.message };
  // A pattern cannot tell 2025-02-30 from a real date.
  const { created } = value as { readonly created: string };
  if (parseEventTime(created) === undefined) {
    return { path: '/created', message: `\`created\` must be a real UTC date and time; ${created} is not one` };
  }
  return undefined;
}
