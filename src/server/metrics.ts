/** A signing certificate's end and its WWDR intermediate's, for `passmint_certificate_expiry_timestamp_seconds`. */
export interface CertificateExpiryFigure {
  readonly passTypeIdentifier: string;
  readonly teamIdentifier: string;
  readonly notAfter: Date;
  readonly wwdrNotAfter: Date;
}

/** When each signing certificate and its WWDR intermediate expire (an alert: less than 30 days left); nothing when they cannot be read. */
async function expiryLines(certificates: () => Promise<readonly CertificateExpiryFigure[]>): Promise<string[]> {
  let list: readonly CertificateExpiryFigure[];
  try {
    list = await certificates();
  } catch {
    return [];
  }
  const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);
  return [
    '# HELP passmint_certificate_expiry_timestamp_seconds When a signing certificate (certificate="pass") or the WWDR intermediate that issued it (certificate="wwdr") expires, in seconds since the epoch.',
    '# TYPE passmint_certificate_expiry_timestamp_seconds gauge',
    ...list.flatMap((entry) => [
      `passmint_certificate_expiry_timestamp_seconds${labels({ pass_type: entry.passTypeIdentifier, team: entry.teamIdentifier, certificate: 'pass' })} ${seconds(entry.notAfter)}`,
      `passmint_certificate_expiry_timestamp_seconds${labels({ pass_type: entry.passTypeIdentifier, team: entry.teamIdentifier, certificate: 'wwdr' })} ${seconds(entry.wwdrNotAfter)}`,
    ]),
  ];
}

/** Upper bounds of the request latency histogram, in seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** Connections of a pool: what `GET /metrics` reports as `passmint_db_pool_connections`. */
export interface PoolStats {
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
}

/**
 * What a scrape reads from the database (every process's work): the webhook
 * queue, deliveries and pushes by status, and the Google sync queue.
 *
 * @example
 * ```ts
 * const figures: DatabaseFigures = {
 *   queue: { pending: 3, due: 1, oldest: 0.2 },
 *   deliveries: [{ status: 'delivered', n: 12 }],
 *   pushes: [],
 *   google: { owed: 0, retrying: 0 },
 * };
 * ```
 */
export interface DatabaseFigures {
  readonly queue: { readonly pending: number; readonly due: number; readonly oldest: number | null };
  readonly deliveries: readonly { readonly status: string; readonly n: number }[];
  readonly pushes: readonly { readonly status: string; readonly n: number }[];
  readonly google: { readonly owed: number; readonly retrying: number };
  /** The registrations furthest behind: each one's pending deliveries (counted up to a cap), the age of its oldest pending event and of its oldest due delivery (seconds). */
  readonly webhooks?:
    | readonly { readonly webhookId: string; readonly pending: number; readonly oldestPending: number; readonly oldestDue: number | null }[]
    | undefined;
  /** Events the console's counts have not counted yet. */
  readonly consoleBacklog?: number | undefined;
}

/**
 * The process's counters and the text `GET /metrics` answers.
 *
 * @example
 * ```ts
 * const metrics = createMetrics(() => readDatabaseFigures(db));
 * metrics.request('GET', '/v1/passes', 200, 12);
 * const text = await metrics.render();
 * ```
 */
export interface Metrics {
  /** Counts one answered request: its route pattern (not its path), status and duration in ms. */
  request(method: string, route: string, status: number, ms: number): void;
  /** Counts one webhook delivery attempt by outcome (`received`, `retry`, `gone`). */
  delivery(outcome: string): void;
  /** Counts one APNs push by outcome (`sent`, `gone`, `retry`, `rejected`). */
  push(outcome: string): void;
  /** The Prometheus text (version 0.0.4): this process's counters and the queue as the database has it. */
  render(): Promise<string>;
}

interface Histogram {
  readonly counts: number[];
  sum: number;
  count: number;
}

const escape = (value: string): string => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labels = (pairs: Record<string, string | number>): string =>
  `{${Object.entries(pairs)
    .map(([name, value]) => `${name}="${escape(String(value))}"`)
    .join(',')}}`;

/**
 * Request counters and latency histograms by method, route pattern and
 * status (bounded: unknown paths count as `unmatched`), delivery and push
 * outcomes counted by this process, and, read from the database at each
 * scrape (`figures`; a rejection shows as `passmint_database_up 0`): the
 * webhook queue (pending, due, age of the oldest due delivery), deliveries
 * and pushes by status, the Google sync queue; and the pool (`poolStats`,
 * PostgreSQL).
 */
export function createMetrics(
  figures: () => Promise<DatabaseFigures>,
  poolStats?: () => PoolStats | undefined,
  certificates?: () => Promise<readonly CertificateExpiryFigure[]>,
): Metrics {
  const started = Date.now() / 1000;
  const requests = new Map<string, number>();
  const latencies = new Map<string, Histogram>();
  const deliveries = new Map<string, number>();
  const pushes = new Map<string, number>();
  const bump = (map: Map<string, number>, key: string): void => {
    map.set(key, (map.get(key) ?? 0) + 1);
  };

  const database = async (): Promise<string[]> => {
    const lines: string[] = [];
    try {
      const { queue, deliveries: deliveryStates, pushes: pushStates, google, webhooks = [], consoleBacklog = 0 } = await figures();
      lines.push(
        '# HELP passmint_webhook_queue_pending Webhook deliveries not yet delivered (all processes).',
        '# TYPE passmint_webhook_queue_pending gauge',
        `passmint_webhook_queue_pending ${queue.pending}`,
        '# HELP passmint_webhook_queue_due Pending webhook deliveries whose next attempt is due now.',
        '# TYPE passmint_webhook_queue_due gauge',
        `passmint_webhook_queue_due ${queue.due}`,
        '# HELP passmint_webhook_queue_oldest_due_seconds How long the oldest due delivery has been due (0 when none is).',
        '# TYPE passmint_webhook_queue_oldest_due_seconds gauge',
        `passmint_webhook_queue_oldest_due_seconds ${Math.max(0, queue.oldest ?? 0)}`,
        '# HELP passmint_webhook_backlog Pending deliveries of a registration (the 20 furthest behind; counted up to 10000).',
        '# TYPE passmint_webhook_backlog gauge',
        ...webhooks.map((hook) => `passmint_webhook_backlog${labels({ webhook: hook.webhookId })} ${hook.pending}`),
        '# HELP passmint_webhook_oldest_pending_seconds Age of the event of the oldest pending delivery of a registration: how far behind its receiver is.',
        '# TYPE passmint_webhook_oldest_pending_seconds gauge',
        ...webhooks.map((hook) => `passmint_webhook_oldest_pending_seconds${labels({ webhook: hook.webhookId })} ${hook.oldestPending}`),
        '# HELP passmint_webhook_oldest_due_seconds How long the oldest due delivery of a registration has been due (0 when none is).',
        '# TYPE passmint_webhook_oldest_due_seconds gauge',
        ...webhooks.map((hook) => `passmint_webhook_oldest_due_seconds${labels({ webhook: hook.webhookId })} ${hook.oldestDue ?? 0}`),
        '# HELP passmint_webhook_deliveries Webhook deliveries in the database by status.',
        '# TYPE passmint_webhook_deliveries gauge',
        ...['pending', 'delivered', 'failed', 'cancelled'].map(
          (status) => `passmint_webhook_deliveries${labels({ status })} ${deliveryStates.find((row) => row.status === status)?.n ?? 0}`,
        ),
        '# HELP passmint_apns_pushes APNs pushes in the database by status.',
        '# TYPE passmint_apns_pushes gauge',
        ...['pending', 'sent', 'gone', 'failed'].map(
          (status) => `passmint_apns_pushes${labels({ status })} ${pushStates.find((row) => row.status === status)?.n ?? 0}`,
        ),
        '# HELP passmint_google_syncs_owed Google Wallet classes and objects with a change not yet sent to Google.',
        '# TYPE passmint_google_syncs_owed gauge',
        `passmint_google_syncs_owed ${google.owed}`,
        '# HELP passmint_google_syncs_retrying Of those, the ones whose last attempt failed (Google unreachable or throttling).',
        '# TYPE passmint_google_syncs_retrying gauge',
        `passmint_google_syncs_retrying ${google.retrying}`,
        "# HELP passmint_console_backlog Events the console's counts (stats, overview) have not counted yet.",
        '# TYPE passmint_console_backlog gauge',
        `passmint_console_backlog ${consoleBacklog}`,
        '# HELP passmint_database_up Whether the database answered this scrape.',
        '# TYPE passmint_database_up gauge',
        'passmint_database_up 1',
      );
    } catch {
      lines.push('# HELP passmint_database_up Whether the database answered this scrape.', '# TYPE passmint_database_up gauge', 'passmint_database_up 0');
    }
    return lines;
  };

  return {
    request(method, route, status, ms) {
      bump(requests, `${method}\u0000${route}\u0000${status}`);
      const key = `${method}\u0000${route}`;
      let histogram = latencies.get(key);
      if (histogram === undefined) {
        histogram = { counts: BUCKETS.map(() => 0), sum: 0, count: 0 };
        latencies.set(key, histogram);
      }
      const seconds = ms / 1000;
      BUCKETS.forEach((bound, index) => {
        if (seconds <= bound) histogram.counts[index]! += 1;
      });
      histogram.sum += seconds;
      histogram.count += 1;
    },
    delivery: (outcome) => bump(deliveries, outcome),
    push: (outcome) => bump(pushes, outcome),
    async render() {
      const lines = [
        '# HELP passmint_process_start_time_seconds When this process started, in seconds since the epoch.',
        '# TYPE passmint_process_start_time_seconds gauge',
        `passmint_process_start_time_seconds ${started}`,
        '# HELP passmint_http_requests_total Requests answered by this process, by method, route pattern and status.',
        '# TYPE passmint_http_requests_total counter',
      ];
      for (const [key, count] of requests) {
        const [method, route, status] = key.split('\u0000') as [string, string, string];
        lines.push(`passmint_http_requests_total${labels({ method, route, status })} ${count}`);
      }
      lines.push(
        '# HELP passmint_http_request_duration_seconds Time to answer a request, by method and route pattern.',
        '# TYPE passmint_http_request_duration_seconds histogram',
      );
      for (const [key, histogram] of latencies) {
        const [method, route] = key.split('\u0000') as [string, string];
        for (const [index, bound] of BUCKETS.entries()) {
          lines.push(`passmint_http_request_duration_seconds_bucket${labels({ method, route, le: bound })} ${histogram.counts[index]}`);
        }
        lines.push(
          `passmint_http_request_duration_seconds_bucket${labels({ method, route, le: '+Inf' })} ${histogram.count}`,
          `passmint_http_request_duration_seconds_sum${labels({ method, route })} ${histogram.sum}`,
          `passmint_http_request_duration_seconds_count${labels({ method, route })} ${histogram.count}`,
        );
      }
      lines.push(
        '# HELP passmint_webhook_attempts_total Webhook delivery attempts made by this process, by outcome.',
        '# TYPE passmint_webhook_attempts_total counter',
      );
      for (const [outcome, count] of deliveries) lines.push(`passmint_webhook_attempts_total${labels({ outcome })} ${count}`);
      lines.push('# HELP passmint_apns_push_attempts_total APNs pushes made by this process, by outcome.', '# TYPE passmint_apns_push_attempts_total counter');
      for (const [outcome, count] of pushes) lines.push(`passmint_apns_push_attempts_total${labels({ outcome })} ${count}`);
      const pool = poolStats?.();
      if (pool !== undefined) {
        lines.push(
          '# HELP passmint_db_pool_connections PostgreSQL pool connections of this process: total open, idle, and requests waiting for one.',
          '# TYPE passmint_db_pool_connections gauge',
          `passmint_db_pool_connections${labels({ state: 'total' })} ${pool.total}`,
          `passmint_db_pool_connections${labels({ state: 'idle' })} ${pool.idle}`,
          `passmint_db_pool_connections${labels({ state: 'waiting' })} ${pool.waiting}`,
        );
      }
      lines.push(...(await database()));
      if (certificates !== undefined) lines.push(...(await expiryLines(certificates)));
      return `${lines.join('\n')}\n`;
    },
  };
}
