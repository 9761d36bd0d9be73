import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PassSigner } from '../pkpass/signer.js';
import { addApiKey, createApiKeyChecker, ensureFirstApiKey } from './db/keys.js';
import { DEFAULT_TIMEOUT_MS } from '../webhooks/post.js';
import { createServiceHandler } from './handler.js';
import type { ErrorPlace, LogSink } from './http/log.js';
import { resolveLimits, type ServiceLimits } from './http/limits.js';
import { createMetrics, type Metrics, type PoolStats } from './metrics.js';
import { createConsoleRollUp } from './queue/console-roll-up.js';
import { createRetention } from './queue/retention.js';
import { checkWebhookConcurrency, createDeliveryWorker, type DeliveryAttempt, type DeliveryOptions, type Worker } from './queue/delivery-worker.js';
import { nodeListener } from './http/node-listener.js';
import { readQueueFigures } from './db/figures.js';
import { defaultLeaseMs, leaseProblem } from './queue/lease.js';
import { releaseClaimsAtStart } from './queue/queue.js';
import { openPglite } from './db/pglite.js';
import { createOutboxSignal } from './db/outbox-signal.js';
import { openPostgres } from './db/postgres.js';
import { createPushWorker, type Pusher } from './queue/push-worker.js';
import { createGoogleService, type GoogleServiceOptions } from './google/service.js';
import { createGoogleWorker } from './google/worker.js';
import { createPassBuilder } from './build/pass-builder.js';
import { createImportRunner } from './queue/imports.js';
import { createMessageRunner } from './queue/messages.js';
import { createVoidRunner } from './queue/lifecycle.js';
import { createPublishRunner, type PublishRender } from './queue/publish.js';
import { createJobWorker } from './queue/jobs.js';
import { migrate } from './db/schema.js';
import { createSecretBox, readSecretKey, type SecretBox } from './db/secret-box.js';
import { folderSecretKey, prepareSecrets, webhookSecretOpener } from './db/secrets.js';
import { openGoogleCredentials } from './db/secret-google.js';
import { createSignerRegistry, createTopicPusher, type ApnsIdentity, type IdentityPusher } from './build/signers.js';
import { watchCertificateExpiry } from './queue/certificate-expiry.js';
import { DEFAULT_DATABASE_LIMITS, type DatabaseLimits, type SqlDatabase } from './db/sql.js';

/**
 * What `createServer` needs. Everything is optional: without any option the
 * service runs on an in-memory PGlite database (use `dataDir` to keep it).
 *
 * @example
 * ```ts
 * const options: ServerOptions = {
 *   databaseUrl: process.env.DATABASE_URL,
 *   signer: await createPassSigner({ certificate, privateKey, wwdr }),
 *   publicUrl: 'https://passes.example.com',
 * };
 * ```
 */
export interface ServerOptions {
  /** A PostgreSQL server (`postgres://…`); any number of processes may share it. Wins over `dataDir`. */
  readonly databaseUrl?: string | undefined;
  /** The folder of the embedded PGlite database; without it (and without `databaseUrl`), memory. */
  readonly dataDir?: string | undefined;
  /** A database opened by the caller (tests, a custom pool); the server does not close it. */
  readonly database?: SqlDatabase | undefined;
  /** For the database it opens (not `database`): how long a statement may run and wait, how many may wait; default {@link DEFAULT_DATABASE_LIMITS}. */
  readonly databaseLimits?: DatabaseLimits | undefined;
  /** Signs downloads and Apple's pass fetches of its pass type (certificates uploaded to `/v1/certificates` sign theirs); without any, those answer 409 `signing-not-configured`. */
  readonly signer?: PassSigner | undefined;
  /** The start identity's certificate and key in PEM: APNs pushes of its topic through `apnsFor` when `apns` is not given. */
  readonly signerPem?: { readonly certificatePem: string; readonly privateKeyPem: string } | undefined;
  /** Apple's WWDR intermediate (PEM or DER): the default of an uploaded certificate's (default the signer's). */
  readonly wwdr?: string | Uint8Array | undefined;
  /**
   * The key-encryption key of the secrets stored (32 bytes, or base64 of them: `PASSMINT_SECRET_KEY`). Without it: a PGlite folder
   * makes one in the folder (`passmint-secret.key`, 0600) and logs it; PGlite in memory makes one for the process; PostgreSQL (or a
   * `database` given) stores no secret: registering a webhook or rotating its secret, and uploading a certificate or Google credentials,
   * answer 409 `secret-key-missing` (webhook secrets an older version stored in clear keep working).
   */
  readonly secretKey?: string | Uint8Array | undefined;
  /** Makes the APNs client of an uploaded certificate (its topic's pushes use it); with `apns`, the start identity's pushes keep using that. */
  readonly apnsFor?: ((identity: ApnsIdentity) => IdentityPusher) | undefined;
  /** `teamIdentifier` (default: the signer's) and `organizationName` (default `"passmint"`) written into passes. */
  readonly issuer?: { readonly teamIdentifier?: string | undefined; readonly organizationName?: string | undefined } | undefined;
  /** The origin clients and Wallet reach the service at (`https://passes.example.com`); default each request's own. */
  readonly publicUrl?: string | undefined;
  /** API keys accepted besides those in the database. */
  readonly apiKeys?: readonly string[] | undefined;
  /** Make an API key when the database has none (default `true`); it is in `firstApiKey`. */
  readonly createFirstApiKey?: boolean | undefined;
  /** Pushes pass updates to devices (an `ApnsClient`); without it no pushes are queued. */
  readonly apns?: Pusher | undefined;
  /** Google Wallet: a class per template and an object per pass, kept in step through the durable queue; save links; callbacks. */
  readonly google?: GoogleServiceOptions | undefined;
  /** How webhooks are delivered (`allowPrivateNetworks` also lets registrations point at private addresses). */
  readonly delivery?: DeliveryOptions | undefined;
  /** Run the delivery and push workers in this process (default `true`). */
  readonly workers?: boolean | undefined;
  /** Largest JSON body, in bytes; default 1 MiB. */
  readonly maxBodyBytes?: number | undefined;
  /** Largest template file (an image), in bytes; default 4 MiB. */
  readonly maxFileBytes?: number | undefined;
  /** Caps and rates for what a pass holder or a client can make the service do; see docs/limits.md. */
  readonly limits?: ServiceLimits | undefined;
  /** Receives one entry per request (and per delivery attempt where the worker reports them); default none. `passmint serve` writes JSON lines. */
  readonly log?: LogSink | undefined;
  /** A bearer token that opens `GET /metrics` besides an API key (for a Prometheus scraper). */
  readonly metricsToken?: string | undefined;
  /** Delete events older than this many days whose deliveries all ended, with their deliveries and attempts; default 30, 0 keeps them. */
  readonly retentionDays?: number | undefined;
  /** Delete audit log entries older than this many days; default 365, 0 keeps them (docs/audit.md). */
  readonly auditRetentionDays?: number | undefined;
  /** Told about every error behind a 500 (with the request's method, route template and id) and every failed worker round; default `console.error`. */
  readonly onError?: ((error: unknown, where?: ErrorPlace) => void) | undefined;
  /** The folder of the built console served at `/console` (default `dist/console/` of the package). */
  readonly consoleDir?: string | undefined;
  /** The time in milliseconds console sessions are judged by (default `Date.now`; tests move it). */
  readonly now?: (() => number) | undefined;
}

/**
 * A running service: a Fetch handler, a Node listener, and its workers.
 *
 * @example
 * ```ts
 * const server: PassmintServer = await createServer({ dataDir: './data' });
 * const { url } = await server.listen(8080);
 * ```
 */
export interface PassmintServer {
  /** The Fetch handler: the API under `/v1/`, Apple's web service under `/wallet/`. */
  readonly fetch: (request: Request) => Promise<Response>;
  /** The key made on this start when the database had none; shown once, stored only as a hash. */
  readonly firstApiKey: string | undefined;
  /** `pglite` or `postgres`. */
  readonly engine: 'pglite' | 'postgres';
  /** The database it runs on. */
  readonly database: SqlDatabase;
  /** The webhook delivery worker (started unless `workers: false`). */
  readonly deliveries: Worker;
  /** This process's counters (`GET /metrics`). */
  readonly metrics: Metrics;
  /** Adds an `admin` API key (given, or made) and returns it. */
  addApiKey(key?: string): Promise<string>;
  /** Listens on `node:http` (port 0: any free port); resolves to where. */
  listen(port?: number, host?: string): Promise<{ readonly url: string; readonly port: number; readonly server: Server }>;
  /** Stops listening, waits for the workers' batches in flight, closes the database it opened. */
  close(): Promise<void>;
}

/**
 * Starts the self-hosted pass service (`passmint serve` from code): opens the
 * database (PostgreSQL with `databaseUrl`, else PGlite), runs the schema
 * migrations (safe when several processes start at once), makes the first
 * API key when there is none, and starts this process's delivery and push
 * workers. Several processes on one PostgreSQL share the work: each delivery
 * is claimed by one of them (`FOR UPDATE SKIP LOCKED`).
 *
 * @example
 * ```ts
 * import { createServer } from 'passmint/server';
 *
 * const server = await createServer({ databaseUrl: process.env.DATABASE_URL });
 * if (server.firstApiKey) console.log(`API key: ${server.firstApiKey}`);
 * const { url } = await server.listen(8080);
 * ```
 */
export async function createServer(options: ServerOptions = {}): Promise<PassmintServer> {
  const onError = options.onError ?? ((error: unknown) => console.error(error));
  const limits = resolveLimits(options.limits);
  const owned = options.database === undefined;
  const delivery = withLease(options.delivery ?? {});
  checkWebhookConcurrency(delivery.webhookConcurrency);
  // Checked before the database opens: a wrong issuer id is refused at start, not at every sync.
  let google = options.google === undefined ? undefined : createGoogleService(options.google);
  const dbLimits = { ...DEFAULT_DATABASE_LIMITS, ...definedOnly(options.databaseLimits) };
  const db =
    options.database ??
    (options.databaseUrl !== undefined && options.databaseUrl !== ''
      ? await openPostgres({ connectionString: options.databaseUrl, ...dbLimits })
      : await openPglite({ dataDir: options.dataDir, waitMs: dbLimits.waitMs, maxWaiting: dbLimits.maxWaiting }));
  let startRelease: { cancel(): void } | undefined;
  let secretBox: SecretBox | undefined;
  try {
    await migrate(db);
    secretBox = secretBoxOf(options, db, owned);
    // A wrong key (or none, with sealed secrets stored) refuses the start: never a service that signs nothing.
    await prepareSecrets(db, secretBox);
    // Google credentials uploaded (POST /v1/google/credentials) win over the start options'; their endpoints are kept.
    const uploaded = await openGoogleCredentials(db, secretBox);
    if (uploaded !== undefined) google = createGoogleService({ ...options.google, ...uploaded });
    if (secretBox === undefined) {
      options.log?.({
        time: new Date().toISOString(),
        type: 'secret-key',
        message:
          'No secret key: webhooks cannot be registered, nor certificates and Google credentials uploaded (no secret is stored unsealed). Set PASSMINT_SECRET_KEY (openssl rand -base64 32) or --secret-key-file.',
      });
    }
    // Claims of a process that is gone are freed now rather than when their lease runs out: on a
    // PGlite folder this process holds the lock, so every claim is a dead one's.
    if (owned || db.engine === 'postgres') startRelease = await releaseClaimsAtStart(db, onError);
  } catch (error) {
    if (owned) await db.close();
    throw error;
  }
  const firstApiKey = options.createFirstApiKey === false ? undefined : await ensureFirstApiKey(db);
  const metrics = createMetrics(
    () => readQueueFigures(db),
    () => (db as { poolStats?: () => PoolStats }).poolStats?.(),
    () => signers.expiries(),
  );
  const box = secretBox;
  const deliveries = createDeliveryWorker(
    db,
    { ...delivery, onAttempt: observeDeliveries(metrics, options.log, delivery.onAttempt), openSecret: webhookSecretOpener(box) },
    onError,
  );
  const signers = createSignerRegistry({ db, box, fixed: options.signer, fixedApns: options.signerPem });
  await signers.refresh();
  // APNs: each topic through its own certificate's client (apnsFor), else the pusher given at start.
  const topicPusher = options.apnsFor === undefined ? undefined : createTopicPusher(signers, options.apnsFor, options.apns);
  const pusher = topicPusher ?? options.apns;
  const apns = pusher === undefined ? undefined : observePushes(pusher, metrics, options.log);
  const expiry = watchCertificateExpiry(db, {
    start:
      options.signer === undefined
        ? undefined
        : {
            id: null,
            passTypeIdentifier: options.signer.passTypeIdentifier,
            teamIdentifier: options.signer.teamIdentifier,
            notAfter: options.signer.notAfter,
            fingerprint: createHash('sha256').update(options.signer.certificate).digest('hex'),
          },
    onWritten: () => {
      wakeWorkers();
      signal?.notify();
    },
    onError,
  });
  const pushes = apns === undefined ? undefined : createPushWorker(db, apns, { pollMs: delivery.pollMs, leaseMs: delivery.leaseMs }, onError);
  const googleSync =
    google === undefined
      ? undefined
      : createGoogleWorker(db, google, { publicUrl: options.publicUrl, pollMs: delivery.pollMs, leaseMs: delivery.leaseMs }, onError);

  // Jobs (imports): their own pass builder, rendering as the API's does; each batch's deliveries wake the workers.
  const jobBuilder = createPassBuilder({
    db,
    issuer: {
      teamIdentifier: options.issuer?.teamIdentifier ?? options.signer?.teamIdentifier ?? 'UNSIGNED00',
      organizationName: options.issuer?.organizationName ?? 'passmint',
    },
    teamFor: signers.teamFor,
    publicUrl: options.publicUrl,
    preparedFilesCacheBytes: 0,
  });
  // A job renders every pass for one origin: one Request made for it, not one per pass. Passes per
  // transaction: PGlite's one connection is held by a batch's writes, PostgreSQL's are many; on PostgreSQL
  // the next batch is rendered while one is written (the database's work is another process's).
  let jobOrigin: { readonly origin: string; readonly request: Request } | undefined;
  const jobRender: PublishRender = (template, values, ids, origin) => {
    if (jobOrigin?.origin !== origin) jobOrigin = { origin, request: new Request(origin) };
    return jobBuilder.build(jobOrigin.request, template, values, ids);
  };
  const jobs = createJobWorker(db, {
    runners: {
      import: createImportRunner(db, {
        render: jobRender,
        pushes: pushes !== undefined,
        google: google !== undefined,
        batchSize: db.engine === 'postgres' ? 500 : 200,
        readAhead: db.engine === 'postgres',
      }),
      message: createMessageRunner({
        render: jobRender,
        pushes: pushes !== undefined,
        googleIssuerId: google?.issuerId,
      }),
      publish: createPublishRunner(db, {
        render: jobRender,
        pushes: pushes !== undefined,
        google: google !== undefined,
        batchSize: db.engine === 'postgres' ? 500 : 100,
        readAhead: db.engine === 'postgres',
      }),
      void: createVoidRunner({ pushes: pushes !== undefined, google: google !== undefined, batchSize: db.engine === 'postgres' ? 500 : 100 }),
    },
    capacity: limits.importsAtOnce,
    pollMs: delivery.pollMs,
    leaseMs: delivery.leaseMs,
    onWritten: () => {
      wakeWorkers();
      signal?.notify();
    },
    onError,
  });

  // Other processes on the same PostgreSQL wake this one's workers when they queue work (and this one theirs).
  const wakeWorkers = (): void => {
    deliveries.wake();
    pushes?.wake();
    googleSync?.wake();
  };
  const signal =
    db.engine === 'postgres' && options.database === undefined && options.databaseUrl !== undefined && db.instanceId !== undefined
      ? await createOutboxSignal({ connectionString: options.databaseUrl, db, instanceId: db.instanceId, onSignal: wakeWorkers })
      : undefined;

  const keys = createApiKeyChecker(db, { extraKeys: options.apiKeys });
  const retention = createRetention(
    db,
    { days: options.retentionDays ?? 30, jobDays: limits.jobRetentionDays, auditDays: options.auditRetentionDays, log: options.log },
    onError,
  );
  // The console's counts, kept up with the events off the write path.
  const rollUp = createConsoleRollUp(db, {}, onError);
  const fetch = createServiceHandler(
    {
      db,
      authenticate: keys.authenticate,
      keys,
      metrics,
      metricsToken: options.metricsToken,
      signer: options.signer,
      signers,
      secretBox,
      wwdr: options.wwdr === undefined ? options.signer?.wwdr : readWwdr(options.wwdr),
      issuer: {
        teamIdentifier: options.issuer?.teamIdentifier ?? options.signer?.teamIdentifier ?? 'UNSIGNED00',
        organizationName: options.issuer?.organizationName ?? 'passmint',
      },
      publicUrl: options.publicUrl,
      pushes: pushes !== undefined,
      google,
      webhooks: {
        allowPrivateNetworks: delivery.allowPrivateNetworks === true,
        timeoutMs: delivery.timeoutMs,
        fetch: delivery.fetch,
      },
      maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
      maxFileBytes: options.maxFileBytes ?? 4 * 1024 * 1024,
      limits,
      notify: () => {
        wakeWorkers();
        signal?.notify();
      },
      onError,
    },
    options.log,
    { dir: options.consoleDir, now: options.now, configuredKeys: options.apiKeys },
  );

  if (options.workers !== false) {
    retention.start();
    rollUp.start();
    expiry.start();
    deliveries.start();
    pushes?.start();
    googleSync?.start();
    if (limits.importsAtOnce > 0) jobs.start();
  }

  const servers: Server[] = [];
  return {
    fetch,
    firstApiKey,
    engine: db.engine,
    database: db,
    deliveries,
    metrics,
    addApiKey: async (key) => {
      const added = await addApiKey(db, key);
      keys.invalidate();
      return added;
    },
    listen(port = 0, host = '127.0.0.1') {
      // A client that sends its headers or body slowly holds a connection: 10 s for the headers, 60 s for the whole request (Node's defaults: 60 s and 5 min).
      const server = createHttpServer({ headersTimeout: 10_000, requestTimeout: 60_000, connectionsCheckingInterval: 5_000 }, nodeListener(fetch, onError));
      servers.push(server);
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolve({ url: `http://${shown}:${address.port}`, port: address.port, server });
        });
      });
    },
    async close() {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
      await fetch.flush();
      startRelease?.cancel();
      await Promise.all([deliveries.stop(), pushes?.stop(), googleSync?.stop(), jobs.stop(), retention.stop(), rollUp.stop(), expiry.stop(), signal?.close()]);
      await topicPusher?.close();
      if (owned) await db.close();
    },
  };
}

/** Counts and logs each delivery attempt (then tells the caller's own `onAttempt`). */
function observeDeliveries(metrics: Metrics, log: LogSink | undefined, next: DeliveryOptions['onAttempt']): (attempt: DeliveryAttempt) => void {
  return (attempt) => {
    metrics.delivery(attempt.outcome);
    log?.({ time: new Date().toISOString(), type: 'delivery', ...attempt });
    next?.(attempt);
  };
}

/** The pusher, with each push counted and logged by outcome (never the device token). */
function observePushes(pusher: Pusher, metrics: Metrics, log: LogSink | undefined): Pusher {
  return {
    async push(pushToken, topic, pushOptions) {
      const started = Date.now();
      let outcome = 'retry';
      try {
        const result = await pusher.push(pushToken, topic, pushOptions);
        outcome = result.outcome;
        return result;
      } finally {
        metrics.push(outcome);
        log?.({ time: new Date().toISOString(), type: 'push', topic, outcome, ms: Date.now() - started });
      }
    },
  };
}

/**
 * The box secrets are sealed with: the key given; else a PGlite folder's own (made there, and logged, on its first start);
 * else, for PGlite in memory, one for this process; else none.
 */
function secretBoxOf(options: ServerOptions, db: SqlDatabase, owned: boolean): SecretBox | undefined {
  if (options.secretKey !== undefined) return createSecretBox(readSecretKey(options.secretKey));
  if (!owned || db.engine !== 'pglite') return undefined;
  if (options.dataDir === undefined) return createSecretBox(new Uint8Array(randomBytes(32)));
  const { key, made, path } = folderSecretKey(options.dataDir);
  if (made) {
    options.log?.({
      time: new Date().toISOString(),
      type: 'secret-key',
      message: `Made a secret key in ${path} (0600): it opens the secrets stored here. Back it up apart from the data, or set PASSMINT_SECRET_KEY.`,
    });
  }
  return createSecretBox(key);
}

/** A PEM or DER certificate as DER. */
function readWwdr(wwdr: string | Uint8Array): Uint8Array {
  return new Uint8Array(new X509Certificate(typeof wwdr === 'string' ? wwdr : Buffer.from(wwdr)).raw);
}

/** The members of `limits` that are given (an `undefined` one keeps the default). */
function definedOnly(limits: DatabaseLimits | undefined): DatabaseLimits {
  return Object.fromEntries(Object.entries(limits ?? {}).filter(([, value]) => value !== undefined));
}

/** The delivery options with a lease that outlasts a delivery: derived when not given, refused when too short. */
function withLease(delivery: DeliveryOptions): DeliveryOptions {
  const timeoutMs = delivery.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (delivery.leaseMs === undefined) return { ...delivery, leaseMs: defaultLeaseMs(timeoutMs) };
  const problem = leaseProblem(delivery.leaseMs, timeoutMs);
  if (problem !== undefined) throw new RangeError(`delivery.leaseMs: ${problem}`);
  return delivery;
}
