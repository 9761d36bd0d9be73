// The console's figures: a series per day or hour (GET /v1/stats) and the overview (GET /v1/stats/overview),
// read from the roll-ups the events' transactions keep (db/stats.ts), never from the events.
import { ServiceProblem } from '../../http/problem.js';
import type { Caller } from '../db/keys.js';
import { catchUpConsole } from '../db/console-roll.js';
import { devicesAt, type StatsBucket, statsSeries, templateTotals } from '../db/stats.js';
import * as store from '../db/store.js';
import { listCertificates } from '../db/certificates.js';
import { readQueueFigures } from '../db/figures.js';
import { isCalendarDay } from '../http/calendar.js';
import { templateIdOf } from '../http/paging.js';
import { defineRoute, type Route } from './define.js';
import { jsonAnswer, problemAnswer, queryParameter } from './docs.js';
import { json } from './responses.js';
import type { Json } from './schemas.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Most points a series has: 31 days of hours, 400 days. */
const MAX_POINTS = { hour: 744, day: 400 } as const;
const MAX_TEMPLATES = 1000;
// A read first counts what the background roll-up has not yet (normally nothing; bounded either way), so a
// chart read right after a write shows it.
const CATCH_UP_EVENTS = 5000;

/** The counters of one interval. */
interface Counters {
  passesMade: number;
  downloads: number;
  added: { apple: number; google: number };
  removed: { apple: number; google: number };
  devices: { apple: number; google: number };
}

const perWallet: Json = {
  type: 'object',
  properties: { apple: { type: 'integer' }, google: { type: 'integer' } },
  required: ['apple', 'google'],
};
const counters: Json = {
  type: 'object',
  properties: {
    passesMade: { type: 'integer', description: 'Passes made.' },
    downloads: { type: 'integer', description: 'Downloads of a `.pkpass` (a repeat of the same version by the same client within the repeat window is one).' },
    added: { ...perWallet, description: "Passes saved to a wallet for the first time (a pass's first Apple registration, its first Google save)." },
    removed: { ...perWallet, description: 'Passes that left their last device (Apple) or save (Google) of a wallet.' },
    devices: { ...perWallet, description: 'Devices (Apple) and saves (Google) holding passes at the end of the interval.' },
  },
  required: ['passesMade', 'downloads', 'added', 'removed', 'devices'],
};
const point: Json = {
  ...counters,
  properties: { at: { type: 'string', format: 'date-time', description: 'Where the interval starts.' }, ...(counters['properties'] as object) },
  required: ['at', ...(counters['required'] as string[])],
};

/** The templates a caller may see: `null` for every one. */
function visibleTemplates(caller: Caller | undefined): number[] | null {
  const ids = caller?.templateIds;
  return ids === null || ids === undefined ? null : ids.map(Number).filter((id) => Number.isSafeInteger(id));
}

/** Stats: the series, and the overview. */
export const statsRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/stats',
    // Narrowed to a limited key's templates by the handler.
    templates: 'filtered',
    auth: 'read',
    summary: 'Passes made, downloads and wallet saves over time',
    description:
      'One point per interval (`day` or `hour`, UTC) in `[from, to)`: passes made, downloads, passes added to and removed from each wallet, and the devices and saves holding passes at the end of the interval. ' +
      '`from` and `to` are ISO 8601 dates or date-times (moved to the interval boundaries); by default the last 30 days, or the last 24 hours. ' +
      'At most 744 hourly or 400 daily points. Read from hourly roll-ups kept with the events: the cost depends on the range, not on the number of events.',
    query: [
      queryParameter('templateId', 'Only this template (default: every template the key may see).'),
      queryParameter('from', 'Start (inclusive), an ISO 8601 date or date-time.', { type: 'string' }),
      queryParameter('to', 'End (exclusive), an ISO 8601 date or date-time.', { type: 'string' }),
      queryParameter('interval', '`day` (default) or `hour`.', { enum: ['day', 'hour'] }),
    ],
    responses: {
      200: jsonAnswer(
        {
          type: 'object',
          properties: {
            interval: { enum: ['day', 'hour'] },
            from: { type: 'string', format: 'date-time' },
            to: { type: 'string', format: 'date-time' },
            points: { type: 'array', items: point },
          },
          required: ['interval', 'from', 'to', 'points'],
        },
        'The series.',
      ),
      400: problemAnswer('A bad `templateId`, `from`, `to` or `interval`, an unknown parameter, or more points than allowed (`invalid-query`).'),
      404: problemAnswer('No such template, or not one this key may see (`template-not-found`).'),
    },
    handler: async ({ url, caller }, { db }) => {
      const query = readStatsQuery(url, Date.now());
      const visible = visibleTemplates(caller);
      let templates = visible;
      if (query.templateId !== undefined) {
        const template = await store.findTemplate(db, query.templateId);
        if (template === undefined || (visible !== null && !visible.includes(query.templateId))) {
          throw new ServiceProblem(404, 'template-not-found', `No template ${query.templateId} exists.`);
        }
        templates = [query.templateId];
      }
      await catchUpConsole(db, CATCH_UP_EVENTS);
      const [buckets, before] = await Promise.all([statsSeries(db, templates, query.from, query.to, query.interval), devicesAt(db, templates, query.from)]);
      return json({
        interval: query.interval,
        from: query.from.toISOString(),
        to: query.to.toISOString(),
        points: series(query, buckets, before),
      });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/stats/overview',
    // Narrowed to a limited key's templates by the handler.
    templates: 'filtered',
    auth: 'read',
    summary: "The console's overview",
    description:
      'The templates with their passes; passes made, downloads, adds and removals per wallet today and in the last 7 days (UTC); the devices and saves holding passes now; the queues (deliveries due and how long the oldest has been due, pushes and Google syncs pending); the signing certificates (uploaded, and the one given at start) and their expiry.',
    responses: {
      200: jsonAnswer(
        {
          type: 'object',
          properties: {
            templates: {
              type: 'array',
              items: {
                type: 'object',
                properties: { id: { type: 'integer' }, name: { type: 'string' }, passes: { type: 'integer' } },
                required: ['id', 'name', 'passes'],
              },
            },
            today: counters,
            week: counters,
            queue: {
              type: 'object',
              properties: {
                dueDeliveries: { type: 'integer' },
                oldestDueSeconds: { type: ['number', 'null'] },
                pushes: { type: 'integer' },
                googleSyncs: { type: 'integer' },
              },
              required: ['dueDeliveries', 'oldestDueSeconds', 'pushes', 'googleSyncs'],
            },
            certificates: {
              type: 'array',
              items: {
                type: 'object',
                properties: { passTypeIdentifier: { type: 'string' }, teamIdentifier: { type: 'string' }, notAfter: { type: 'string', format: 'date-time' } },
                required: ['passTypeIdentifier', 'teamIdentifier', 'notAfter'],
              },
            },
          },
          required: ['templates', 'today', 'week', 'queue', 'certificates'],
        },
        'The overview.',
      ),
    },
    handler: async ({ caller }, { context, db }) => {
      const visible = visibleTemplates(caller);
      const now = Date.now();
      const today = Math.floor(now / DAY_MS) * DAY_MS;
      const weekStart = today - 6 * DAY_MS;
      const end = new Date(Math.ceil((now + 1) / HOUR_MS) * HOUR_MS);
      await catchUpConsole(db, CATCH_UP_EVENTS);
      const templates = await templateTotals(db, visible, MAX_TEMPLATES);
      const days = await statsSeries(db, visible, new Date(weekStart), end, 'day');
      const figures = await readQueueFigures(db);
      const devices = {
        apple: templates.reduce((sum, template) => sum + template.devicesApple, 0),
        google: templates.reduce((sum, template) => sum + template.devicesGoogle, 0),
      };
      // The certificates uploaded, and the one given at start for a pass type none of them covers.
      const uploaded = (await listCertificates(db)).map((certificate) => ({
        passTypeIdentifier: certificate.passTypeIdentifier,
        teamIdentifier: certificate.teamIdentifier,
        notAfter: certificate.notAfter.toISOString(),
      }));
      const signer = context.signer;
      const all =
        signer === undefined || uploaded.some((certificate) => certificate.passTypeIdentifier === signer.passTypeIdentifier)
          ? uploaded
          : [...uploaded, { passTypeIdentifier: signer.passTypeIdentifier, teamIdentifier: signer.teamIdentifier, notAfter: signer.notAfter.toISOString() }];
      // A key limited to templates sees the certificates of its templates' pass types only (each template read by its id).
      const passTypes = visible === null ? undefined : new Set(templates.map((template) => template.passType));
      const certificates = passTypes === undefined ? all : all.filter((certificate) => passTypes.has(certificate.passTypeIdentifier));
      return json({
        templates: templates.map((template) => ({ id: template.id, name: template.name, passes: template.passes })),
        today: { ...sum(days.filter((day) => day.start.getTime() >= today)), devices },
        week: { ...sum(days), devices },
        queue: {
          dueDeliveries: figures.queue.due,
          oldestDueSeconds: figures.queue.oldest,
          pushes: figures.pushes.find((entry) => entry.status === 'pending')?.n ?? 0,
          googleSyncs: figures.google.owed,
        },
        certificates,
      });
    },
  }),
];

/** What `GET /v1/stats` was asked. */
interface StatsQuery {
  readonly templateId: number | undefined;
  readonly interval: 'day' | 'hour';
  readonly from: Date;
  readonly to: Date;
}

const KNOWN = new Set(['templateId', 'from', 'to', 'interval']);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** Reads and checks the query: every problem a 400 `invalid-query` naming its parameter. */
function readStatsQuery(url: URL, now: number): StatsQuery {
  for (const name of url.searchParams.keys()) {
    if (!KNOWN.has(name)) throw new ServiceProblem(400, 'invalid-query', `Unknown parameter \`${name}\`; known: templateId, from, to, interval.`);
    if (url.searchParams.getAll(name).length > 1) throw new ServiceProblem(400, 'invalid-query', `\`${name}\` is given more than once.`);
  }
  const intervalText = url.searchParams.get('interval') ?? 'day';
  if (intervalText !== 'day' && intervalText !== 'hour') throw new ServiceProblem(400, 'invalid-query', '`interval` must be `day` or `hour`.');
  const interval: 'day' | 'hour' = intervalText;
  const step = interval === 'day' ? DAY_MS : HOUR_MS;
  const templateText = url.searchParams.get('templateId');
  const templateId = templateText === null ? undefined : templateIdOf(templateText);
  if (templateText !== null && templateId === undefined)
    throw new ServiceProblem(400, 'invalid-query', '`templateId` must be a template id (a positive integer).');
  const toText = url.searchParams.get('to');
  const fromText = url.searchParams.get('from');
  const to = toText === null ? Math.ceil((now + 1) / step) * step : Math.ceil(timeOf('to', toText) / step) * step;
  const from = fromText === null ? to - (interval === 'day' ? 30 : 24) * step : Math.floor(timeOf('from', fromText) / step) * step;
  if (from >= to) throw new ServiceProblem(400, 'invalid-query', '`from` must be before `to`.');
  const points = (to - from) / step;
  if (points > MAX_POINTS[interval]) {
    throw new ServiceProblem(400, 'invalid-query', `At most ${MAX_POINTS[interval]} points per request (${interval}s); this range has ${points}.`);
  }
  return { templateId, interval, from: new Date(from), to: new Date(to) };
}

function timeOf(name: string, text: string): number {
  const time = DATE.test(text) ? Date.parse(`${text}T00:00:00Z`) : DATE_TIME.test(text) ? Date.parse(text) : Number.NaN;
  // Years 1970 to 9999: the roll-ups' range; a day the calendar has (2026-02-30 is not rolled over into March).
  if (!Number.isFinite(time) || time < 0 || time > 253_402_300_799_000 || !isCalendarDay(text.slice(0, 10))) {
    throw new ServiceProblem(400, 'invalid-query', `\`${name}\` must be an ISO 8601 date (2025-03-01) or date-time with a zone (2025-03-01T10:00:00Z).`);
  }
  return time;
}

/** The points of a series: one per interval (none in the database: nothing happened), devices carried from `before`. */
function series(
  query: StatsQuery,
  buckets: readonly StatsBucket[],
  before: ReadonlyMap<number, { readonly apple: number; readonly google: number }>,
): unknown[] {
  const step = query.interval === 'day' ? DAY_MS : HOUR_MS;
  let apple = 0;
  let google = 0;
  for (const value of before.values()) {
    apple += value.apple;
    google += value.google;
  }
  const points: unknown[] = [];
  let next = 0;
  for (let start = query.from.getTime(); start < query.to.getTime(); start += step) {
    const bucket = buckets[next]?.start.getTime() === start ? buckets[next++] : undefined;
    apple += bucket?.devicesAppleChange ?? 0;
    google += bucket?.devicesGoogleChange ?? 0;
    points.push({ at: new Date(start).toISOString(), ...sum(bucket === undefined ? [] : [bucket]), devices: { apple, google } });
  }
  return points;
}

/** The counters of some intervals added up (devices aside). */
function sum(hours: readonly StatsBucket[]): Omit<Counters, 'devices'> {
  const total = { passesMade: 0, downloads: 0, added: { apple: 0, google: 0 }, removed: { apple: 0, google: 0 } };
  for (const hour of hours) {
    total.passesMade += hour.passesMade;
    total.downloads += hour.downloads;
    total.added.apple += hour.addedApple;
    total.added.google += hour.addedGoogle;
    total.removed.apple += hour.removedApple;
    total.removed.google += hour.removedGoogle;
  }
  return total;
}
