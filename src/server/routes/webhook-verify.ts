import { verifyEndpoint } from '../../webhooks/handshake.js';
import { openWebhookSecret } from '../db/secrets.js';
import type { SqlQueryable } from '../db/sql.js';
import { setWebhookState, type WebhookRecord } from '../db/store.js';
import type { ServiceContext } from './context.js';
import { webhookResource } from './resources.js';

/**
 * Sends the `webhook.verify` handshake to a registration's URL; a receiver
 * that answers it makes the registration enabled. The registration as it is
 * now, with how the handshake went (`WebhookVerification`).
 *
 * @example
 * ```ts
 * return json(await verifyWebhook(context, db, await webhookOf(db, params.id)));
 * ```
 */
export async function verifyWebhook(context: ServiceContext, db: SqlQueryable, record: WebhookRecord): Promise<Record<string, unknown>> {
  const check = await verifyEndpoint(record.url, openWebhookSecret(context.secretBox, record.secret), {
    allowPrivateNetworks: context.webhooks.allowPrivateNetworks,
    ...(context.webhooks.timeoutMs === undefined ? {} : { timeoutMs: context.webhooks.timeoutMs }),
    ...(context.webhooks.fetch === undefined ? {} : { fetch: context.webhooks.fetch }),
  });
  const updated = check.verified ? await setWebhookState(db, record.id, 'enabled', null) : record;
  return {
    ...webhookResource(updated ?? record),
    verification: check.verified
      ? { verified: true, status: check.status }
      : { verified: false, reason: check.reason, ...(check.status === undefined ? {} : { status: check.status }), error: check.error },
  };
}
