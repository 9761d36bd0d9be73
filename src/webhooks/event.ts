import { checkEvent } from './event-check.js';
import type { CustomEventData, KnownEventType, UnknownWebhookEvent, WebhookEvent, WebhookEventDataMap, WebhookEventOf } from './event-types.js';
import { formatEventTime } from './timestamp.js';
import { WebhookError } from './webhook-error.js';

/** Optional parts of a new event; both default to fresh values. */
export interface CreateEventOptions {
  /** Event id, UUID-shaped; default `crypto.randomUUID()`. Give one to re-create an event with the same id. */
  readonly id?: string;
  /** When it happened; default now. Written as `YYYY-MM-DDTHH:MM:SSZ`, fractions dropped. */
  readonly created?: Date | number;
}

/**
 * Makes an event object: a fresh UUID `id`, `created` in exactly
 * `YYYY-MM-DDTHH:MM:SSZ`, and the given `type` and `data` (copied, so later
 * changes to `data` do not reach the event).
 *
 * Known types check their data; any other non-empty type takes a JSON object.
 * Throws `WebhookError` `invalid-event` for data that cannot be sent.
 *
 * @example
 * ```ts
 * const event = createEvent('pass.created', { serialNumber: 'E5982H-I2', passTypeIdentifier: 'pass.com.example.ticket' });
 * // { id: '…uuid…', type: 'pass.created', created: '2025-03-01T12:00:00Z', data: { … } }
 * ```
 */
export function createEvent<TType extends KnownEventType>(type: TType, data: WebhookEventDataMap[TType], options?: CreateEventOptions): WebhookEventOf<TType>;
/**
 * {@link createEvent} for a type this version does not know (a newer service's),
 * with any object as its data.
 *
 * @example
 * ```ts
 * createEvent('pass.archived', { serialNumber: 'E5982H-I2' }).type; // 'pass.archived'
 * ```
 */
export function createEvent<TType extends string>(
  type: TType extends KnownEventType ? never : TType,
  data: CustomEventData,
  options?: CreateEventOptions,
): UnknownWebhookEvent;
export function createEvent(type: string, data: unknown, options: CreateEventOptions = {}): WebhookEvent {
  let copy: unknown;
  try {
    copy = data === undefined ? undefined : JSON.parse(JSON.stringify(data));
  } catch (cause) {
    throw new WebhookError('invalid-event', 'Event data must be JSON (no cycles, no bigint)', { cause });
  }
  let created: string;
  try {
    created = formatEventTime(options.created ?? Date.now());
  } catch (cause) {
    throw new WebhookError('invalid-event', 'Event time must be a valid date in the years 0000–9999', { cause });
  }
  const event = { id: options.id ?? crypto.randomUUID(), type, created, data: copy };
  const problem = checkEvent(event);
  if (problem !== undefined) throw new WebhookError('invalid-event', `${problem.message} (at ${problem.path})`);
  return event as WebhookEvent;
}

/**
 * Narrows an event to one known type (comparing `event.type` alone cannot,
 * because an unknown event's `type` is any string).
 *
 * @example
 * ```ts
 * if (isEventType(event, 'pass.created')) console.log(event.data.serialNumber);
 * ```
 */
export function isEventType<TType extends KnownEventType>(event: WebhookEvent, type: TType): event is WebhookEventOf<TType> {
  return event.type === type;
}
