// A pass's timeline: what happened to it, newest first (db/timeline.ts; the entries are written by the
// transactions that make them, Wallet's fetches in the background).
import { ServiceProblem } from '../../http/problem.js';
import type { Caller } from '../db/keys.js';
import { listTimeline, type TimelineRecord } from '../db/timeline.js';
import { page, readPage } from '../http/paging.js';
import { defineRoute, type Route } from './define.js';
import { jsonAnswer, paging, problemAnswer, queryParameter } from './docs.js';
import { noPass, passOf } from './lookups.js';
import { json } from './responses.js';

const KINDS = ['created', 'updated', 'downloaded', 'pushed', 'fetched', 'google-synced', 'delivered', 'voided', 'expired', 'message', 'added', 'removed'];

/** The timeline route. */
export const timelineRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/passes/{type}/{serial}/timeline',
    auth: 'read',
    summary: "A pass's timeline",
    description:
      'What happened to the pass, newest first: made (`created`), each change (`updated`, with the version), each download, each APNs push with its outcome (`pushed`), each time Wallet fetched it (`fetched`, 200 or 304), ' +
      'each Google Wallet sync, each webhook delivery that ended (`delivered`, with its status), `voided`, `expired`, messages, and saves to and removals from a wallet (`added`, `removed`). ' +
      'Downloads, fetches, saves and what follows them are kept for about the latest 100 per pass; `cursor` continues from a page’s `next` (same as `before`).',
    query: [...paging, queryParameter('cursor', 'The `next` of the previous page (newest first); the same as `before`.')],
    responses: {
      200: jsonAnswer(
        {
          type: 'object',
          properties: {
            items: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  at: { type: 'string', format: 'date-time' },
                  kind: { enum: KINDS },
                  summary: { type: 'string', description: 'One line for people.' },
                  detail: { type: 'object', description: "The entry's facts (version, outcome, status, wallet, …), by kind." },
                },
                required: ['at', 'kind', 'summary', 'detail'],
              },
            },
            next: { type: ['string', 'null'], description: 'The cursor of the next page, `null` on the last.' },
          },
          required: ['items', 'next'],
        },
        'A page of entries.',
      ),
      400: problemAnswer('A bad cursor or `limit` (`invalid-query`).'),
      404: problemAnswer('No such pass, or of a template this key may not see (`pass-not-found`).'),
    },
    handler: async ({ url, params, caller }, { db }) => {
      const query = readPage(withCursor(url), 'before');
      const pass = await passOf(db, params.type, params.serial);
      if (!mayRead(caller, pass.templateId)) throw new ServiceProblem(404, 'pass-not-found', noPass(params.type, params.serial));
      const entries = await listTimeline(db, pass.passTypeIdentifier, pass.serialNumber, query);
      return json(
        page(
          entries,
          query,
          (entry) => entry.id,
          (entry) => ({ at: entry.at.toISOString(), kind: entry.kind, summary: summaryOf(entry), detail: detailOf(entry) }),
        ),
      );
    },
  }),
];

/** `?cursor=` read as `?before=` (the timeline's own direction). */
function withCursor(url: URL): URL {
  const cursor = url.searchParams.get('cursor');
  if (cursor === null) return url;
  if (url.searchParams.has('before') || url.searchParams.has('after'))
    throw new ServiceProblem(400, 'invalid-query', 'Give `cursor`, `before` or `after`, not two.');
  const copy = new URL(url);
  copy.searchParams.delete('cursor');
  copy.searchParams.set('before', cursor);
  return copy;
}

function mayRead(caller: Caller | undefined, templateId: number): boolean {
  const ids = caller?.templateIds;
  return ids === null || ids === undefined || ids.includes(String(templateId));
}

/** The detail without what is null (a trigger writes every member its kind may have). */
function detailOf(entry: TimelineRecord): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entry.detail).filter(([, value]) => value !== null));
}

const walletName = (wallet: unknown): string => (wallet === 'google' ? 'Google Wallet' : 'Apple Wallet');

/** One line for people, by kind. */
function summaryOf(entry: TimelineRecord): string {
  const detail = entry.detail;
  switch (entry.kind) {
    case 'created':
      return 'Made (version 1)';
    case 'updated':
      return typeof detail['version'] === 'number' ? `Changed (now version ${detail['version']})` : 'Changed';
    case 'downloaded':
      return 'Downloaded (.pkpass)';
    case 'fetched':
      return detail['status'] === 304 ? 'Wallet checked for changes: none (304)' : 'Wallet fetched the pass (200)';
    case 'pushed':
      return detail['outcome'] === 'sent'
        ? 'APNs push sent to a device'
        : detail['outcome'] === 'gone'
          ? 'APNs push: the device is gone (its registration was removed)'
          : `APNs push failed${typeof detail['error'] === 'string' ? `: ${detail['error']}` : ''}`;
    case 'google-synced':
      return detail['ok'] === false
        ? `Google Wallet refused the change${typeof detail['error'] === 'string' ? `: ${detail['error']}` : ''}`
        : 'Synced to Google Wallet';
    case 'delivered': {
      const status = typeof detail['httpStatus'] === 'number' ? ` (HTTP ${detail['httpStatus']})` : '';
      const event = typeof detail['event'] === 'string' ? detail['event'] : 'event';
      return detail['status'] === 'delivered' ? `Webhook received ${event}${status}` : `Webhook delivery of ${event} ${String(detail['status'])}${status}`;
    }
    case 'voided':
      return 'Voided';
    case 'expired':
      return 'Expired';
    case 'message':
      return typeof detail['header'] === 'string' && detail['header'] !== '' ? `Message: ${detail['header']}` : 'Message sent';
    case 'added':
      return `Added to ${walletName(detail['wallet'])}`;
    case 'removed':
      return `Removed from ${walletName(detail['wallet'])}`;
    default:
      return entry.kind;
  }
}
