// The JSON shapes of the service's resources, as its answers give them.
import type { DeliveryRecord, PassRecord, WebhookRecord } from '../db/store.js';
import { baseUrl, type ServiceContext } from './context.js';

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

/** A pass's links (`PassLinks`). */
export interface PassLinks {
  readonly self: string;
  readonly passjson: string;
  readonly pkpass: string;
  readonly google?: string;
  /** The holder's public page: the pass drawn, with the wallet buttons. */
  readonly share: string;
}

/**
 * A pass's links: itself, its pass.json, its download (with the pass's token,
 * a link a phone can open) and, with Google Wallet, its save link.
 *
 * @example
 * ```ts
 * passLinks(context, request, record).pkpass; // 'https://passes.example.com/v1/passes/pass.x/M-1/pkpass?token=…'
 * ```
 */
export function passLinks(context: ServiceContext, request: Request, record: PassRecord): PassLinks {
  const base = `${baseUrl(context, request)}/v1/passes/${encodeURIComponent(record.passTypeIdentifier)}/${encodeURIComponent(record.serialNumber)}`;
  const token = record.pass.authenticationToken;
  return {
    self: base,
    passjson: `${base}/passjson`,
    // A link a phone can open: the pass's own token stands in for the API key.
    pkpass: `${base}/pkpass${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`,
    // With Google Wallet: the same for the "Add to Google Wallet" link (a redirect to it).
    ...(context.google === undefined ? {} : { google: `${base}/google${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}` }),
    // One link for every phone: a page that offers the wallet of the device it is opened on.
    share: `${baseUrl(context, request)}/p/${record.shareId}`,
  };
}

/**
 * A pass in a list (`PassSummary`): without its values.
 *
 * @example
 * ```ts
 * page(items, query, (item) => item.seq, (item) => passSummary(context, request, item));
 * ```
 */
export function passSummary(context: ServiceContext, request: Request, record: PassRecord): Record<string, unknown> {
  return {
    passTypeIdentifier: record.passTypeIdentifier,
    serialNumber: record.serialNumber,
    templateId: record.templateId,
    version: record.version,
    created: iso(record.created),
    updated: iso(record.updated),
    state: record.state,
    templateVersion: record.renderedVersion,
    links: passLinks(context, request, record),
  };
}

/**
 * A pass (`Pass`): its summary and its values.
 *
 * @example
 * ```ts
 * json(passResource(context, request, record));
 * ```
 */
export function passResource(context: ServiceContext, request: Request, record: PassRecord): Record<string, unknown> {
  return { ...passSummary(context, request, record), values: record.values };
}

/**
 * A webhook registration (`Webhook`): never its secret.
 *
 * @example
 * ```ts
 * json(webhookResource(record));
 * ```
 */
export function webhookResource(record: WebhookRecord): Record<string, unknown> {
  return {
    id: record.id,
    url: record.url,
    state: record.state,
    stateReason: record.stateReason,
    events: record.events,
    created: iso(record.created),
    updated: iso(record.updated),
  };
}

/**
 * A delivery with its attempts (`Delivery`).
 *
 * @example
 * ```ts
 * page(items, query, (item) => item.id, deliveryResource);
 * ```
 */
export function deliveryResource(delivery: DeliveryRecord): Record<string, unknown> {
  return {
    id: String(delivery.id),
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    webhookId: delivery.webhookId,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: iso(delivery.nextAttemptAt),
    lastStatus: delivery.lastStatus,
    lastError: delivery.lastError,
    deliveredAt: iso(delivery.deliveredAt),
    history: delivery.history.map((attempt) => ({ ...attempt, at: iso(attempt.at) })),
  };
}
