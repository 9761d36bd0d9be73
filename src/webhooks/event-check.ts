import { parseEventTime } from './timestamp.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What makes a value not an event: the JSON Pointer of the first bad member and why. */
export interface EventProblem {
  readonly path: string;
  readonly message: string;
}

// Required string members of the known types' data. Unknown types only need an object.
const DATA_MEMBERS: { readonly [type: string]: readonly string[] } = {
  'webhook.verify': ['token'],
  'pass.created': ['serialNumber', 'passTypeIdentifier'],
  'pass.updated': ['serialNumber', 'passTypeIdentifier'],
  'pass.downloaded': ['serialNumber', 'passTypeIdentifier'],
  'registration.created': ['serialNumber', 'passTypeIdentifier'],
  'registration.deleted': ['serialNumber', 'passTypeIdentifier'],
};

/**
 * The first reason `value` is not an event object, or `undefined` when it is one.
 *
 * The same shape as `event.schema.json` (`id` UUID-shaped, `type` a non-empty
 * string, `created` exactly `YYYY-MM-DDTHH:MM:SSZ`, `data` an object), plus:
 * `created` names a real moment, and the data of a known type has its members
 * as non-empty strings. Extra members are allowed (newer services may add
 * some). Never throws.
 *
 * @example
 * ```ts
 * checkEvent({ id: 'x', type: 'pass.created', created: '…', data: {} });
 * // { path: '/id', message: 'id must be a UUID-shaped string' }
 * ```
 */
export function checkEvent(value: unknown): EventProblem | undefined {
  if (!isObject(value)) return { path: '', message: 'An event must be a JSON object' };
  const { id, type, created, data } = value;
  if (typeof id !== 'string' || !UUID.test(id)) return { path: '/id', message: 'id must be a UUID-shaped string' };
  if (typeof type !== 'string' || type.length === 0) {
    return { path: '/type', message: 'type must be a non-empty string' };
  }
  if (typeof created !== 'string' || parseEventTime(created) === undefined) {
    return { path: '/created', message: 'created must be a UTC time written YYYY-MM-DDTHH:MM:SSZ' };
  }
  if (!isObject(data)) return { path: '/data', message: 'data must be an object' };
  const members = Object.hasOwn(DATA_MEMBERS, type) ? DATA_MEMBERS[type] : undefined;
  for (const member of members ?? []) {
    const field = Object.hasOwn(data, member) ? data[member] : undefined;
    if (typeof field !== 'string' || field.length === 0) {
      return { path: `/data/${member}`, message: `A ${type} event needs data.${member} as a non-empty string` };
    }
  }
  return undefined;
}

function isObject(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
