import { createApnsClient, type ApnsClient } from '../apns/index.js';
import { createPassSigner, SignerError, type PassSigner } from '../pkpass/index.js';
import {
  bufferLines,
  createServer,
  isDatabaseUnavailable,
  leaseProblem,
  MissingPackageError,
  readSecretKey,
  SecretKeyError,
  type ApnsIdentity,
  type PassmintServer,
} from '../server/index.js';
import { DEFAULT_TIMEOUT_MS } from '../webhooks/index.js';
import { flag, stringOption, type OptionTable, type ParsedCommandLine } from './args.js';
import { environmentHelp, parseWithEnvironment } from './env-options.js';
import { missingPackageAdvice } from './missing-package-advice.js';
import { errorLogEntry } from './error-log.js';
import { runServeKeys } from './serve-keys.js';
import { runServeSecrets } from './serve-secrets.js';
import { GOOGLE_SERVE_HELP, GOOGLE_SERVE_OPTIONS, readGoogleServeOptions } from './serve-google.js';
import { LIMIT_SERVE_HELP, LIMIT_SERVE_OPTIONS, readDatabaseLimitOptions, readLimitOptions } from './serve-limits.js';
import type { Command } from './command.js';
import { readInput, resolvePath } from './files.js';
import { EXIT_FAILED, EXIT_OK, type CliIo, type ExitCode } from './io.js';
import { PASSPHRASE_HELP, PASSPHRASE_OPTIONS, readPassphrase } from './passphrase-option.js';
import { UsageError } from './usage-error.js';

/**
 * Every option of `passmint serve`, each also read from `PASSMINT_<NAME>`
 * (env-options.ts; the command line wins) and listed in `--help`.
 *
 * @example
 * ```ts
 * Object.keys(SERVE_OPTIONS); // ['port', 'host', 'data', 'database-url', …]
 * ```
 */
export const SERVE_OPTIONS: OptionTable = {
  port: { type: 'string' },
  host: { type: 'string' },
  data: { type: 'string' },
  'database-url': { type: 'string' },
  'public-url': { type: 'string' },
  cert: { type: 'string' },
  key: { type: 'string' },
  wwdr: { type: 'string' },
  ...PASSPHRASE_OPTIONS,
  apns: { type: 'string' },
  'secret-key-file': { type: 'string' },
  ...GOOGLE_SERVE_OPTIONS,
  'team-id': { type: 'string' },
  organization: { type: 'string' },
  'allow-private-webhooks': { type: 'boolean' },
  'poll-ms': { type: 'string' },
  'lease-ms': { type: 'string' },
  'timeout-ms': { type: 'string' },
  'webhook-concurrency': { type: 'string' },
  'metrics-token': { type: 'string' },
  'retention-days': { type: 'string' },
  'audit-retention-days': { type: 'string' },
  debug: { type: 'boolean' },
  ...LIMIT_SERVE_OPTIONS,
  help: { type: 'boolean', short: 'h' },
};

const USAGE = `Usage: passmint serve [options]

Runs the pass service: templates, passes, signed .pkpass downloads, webhooks
with durable delivery, Apple's web service for Wallet, and Google Wallet
passes kept in step (with --google-credentials). The data lives in
an embedded PostgreSQL (PGlite) in a folder; with DATABASE_URL it lives in a
PostgreSQL server instead, and any number of \`passmint serve\` processes on
any number of machines share it. The first start prints an API key (only its
hash is stored): send it as "Authorization: Bearer <key>".

Options:
  --port N                port to listen on (default: $PORT, else 8080; 0 = any free port)
  --host ADDRESS          address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
  --data DIR              the PGlite data folder (default ./passmint-data); ignored with DATABASE_URL
  --database-url URL      a PostgreSQL server (default: $DATABASE_URL)
  --public-url URL        where clients and Wallet reach the service (default: each request's own origin)
  --cert FILE             the Pass Type ID certificate (PEM or DER), to sign passes
  --key FILE              its private key (PEM)
  --wwdr FILE             Apple's WWDR intermediate certificate (G4); alone, the default of uploaded certificates
${PASSPHRASE_HELP}
  --apns ENV              push pass updates through APNs (production or development), each pass type with its
                          certificate (--cert/--key, or one uploaded to /v1/certificates)
  --secret-key-file FILE  the key that seals stored secrets (32 random bytes, base64; or $PASSMINT_SECRET_KEY);
                          default on a data folder: one made there (passmint-secret.key); see docs/certificates.md
${GOOGLE_SERVE_HELP}
  --team-id ID            teamIdentifier for passes (default: the certificate's, else UNSIGNED00)
  --organization NAME     organizationName for passes (default "passmint")
  --allow-private-webhooks  deliver webhooks to private and loopback addresses too
  --poll-ms N             how often an idle worker looks for due deliveries (default 1000)
  --lease-ms N            how long a claimed delivery stays claimed, extended while it runs (default 60000,
                          or twice --timeout-ms when longer); at least --timeout-ms + 500
  --timeout-ms N          time limit of one webhook POST (default 15000)
  --webhook-concurrency N deliveries in flight to one webhook at once, over every process (default 16); each
                          pass's events still arrive in order (1: one at a time, all in creation order)
  --metrics-token TOKEN   a bearer token that opens GET /metrics besides an API key (for a scraper)
  --retention-days N      delete events older than N days whose deliveries all ended, with their
                          deliveries and attempts, and ended APNs pushes and Google messages
                          older than N days (default 30; 0 keeps them)
  --audit-retention-days N delete audit log entries older than N days (default 365; 0 keeps them)
  --debug                 add the stack trace to each internal error's log line
${LIMIT_SERVE_HELP}
  -h, --help              this text

Stop it with Ctrl-C (SIGINT) or SIGTERM: it finishes the deliveries in flight.
It writes one JSON line per request on stdout (method, route, status, ms, request id),
and one per internal error (type "error": message, code, route; no stack trace unless --debug).

Rotate the secret key: \`passmint serve secrets rotate --new-key-file FILE\` (\`--help\` tells more).

Lost the only API key? \`passmint serve keys create --name NAME --scopes admin\`
makes another on the data folder (stop the service first) or on DATABASE_URL;
\`passmint serve keys --help\` tells more.

Environment (one variable per option; the command line wins; PORT and
DATABASE_URL are read too, after PASSMINT_PORT and PASSMINT_DATABASE_URL):
${environmentHelp(SERVE_OPTIONS)}

Example:
  passmint serve --data ./passmint-data --cert keys/certificate.pem --key keys/key.pem --wwdr AppleWWDRCAG4.cer
  DATABASE_URL=postgres://passmint@db.internal/passmint passmint serve --host 0.0.0.0
`;

/** `passmint serve`: the self-hosted pass service. */
export const serve: Command = {
  name: 'serve',
  summary: 'Run the pass service (PGlite in a folder, or PostgreSQL via DATABASE_URL)',
  usage: USAGE,
  run: runServe,
};

const positiveInteger = (name: string, text: string | undefined, min = 1): number | undefined => {
  if (text === undefined) return undefined;
  if (!/^\d{1,9}$/.test(text) || Number(text) < min) throw new UsageError(`${name} is a whole number${min === 0 ? '' : ` of at least ${min}`}, not "${text}"`);
  return Number(text);
};

async function runServe(args: readonly string[], io: CliIo): Promise<ExitCode> {
  if (args[0] === 'keys') return runServeKeys(args.slice(1), io);
  if (args[0] === 'secrets') return runServeSecrets(args.slice(1), io);
  // The request log and every other line on stdout: one write per turn of the event loop, in order; flushed on exit.
  const out = bufferLines(io.stdout);
  process.on('exit', out.flush);
  try {
    return await runService(args, { ...io, stdout: out.write });
  } finally {
    out.flush();
    process.off('exit', out.flush);
  }
}

async function runService(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const parsed = parseWithEnvironment(args, SERVE_OPTIONS, io.env);
  if (flag(parsed, 'help')) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  if (parsed.positionals.length > 0) throw new UsageError(`serve takes no file names (given: ${parsed.positionals.join(' ')})`);
  const port = positiveInteger('--port', stringOption(parsed, 'port') ?? io.env['PORT'], 0) ?? 8080;
  const retentionDays = positiveInteger('--retention-days', stringOption(parsed, 'retention-days'), 0) ?? 30;
  const auditRetentionDays = positiveInteger('--audit-retention-days', stringOption(parsed, 'audit-retention-days'), 0) ?? 365;
  const limits = readLimitOptions(parsed);
  const databaseLimits = readDatabaseLimitOptions(parsed);
  if (port > 65535) throw new UsageError(`--port is at most 65535, not ${port}`);
  const host = stringOption(parsed, 'host') ?? '127.0.0.1';
  const databaseUrl = stringOption(parsed, 'database-url') ?? io.env['DATABASE_URL'];
  const dataDir = resolvePath(io, stringOption(parsed, 'data') ?? 'passmint-data');
  const publicUrl = stringOption(parsed, 'public-url');
  if (publicUrl !== undefined && !/^https?:\/\/[^/?#]+\/?$/.test(publicUrl)) {
    throw new UsageError(`--public-url is an origin such as https://passes.example.com, not "${publicUrl}"`);
  }
  const apnsEnvironment = stringOption(parsed, 'apns');
  if (apnsEnvironment !== undefined && apnsEnvironment !== 'production' && apnsEnvironment !== 'development') {
    throw new UsageError(`--apns is production or development, not "${apnsEnvironment}"`);
  }

  const leaseMs = positiveInteger('--lease-ms', stringOption(parsed, 'lease-ms'));
  const timeoutMs = positiveInteger('--timeout-ms', stringOption(parsed, 'timeout-ms'));
  const leaseTooShort = leaseMs === undefined ? undefined : leaseProblem(leaseMs, timeoutMs ?? DEFAULT_TIMEOUT_MS);
  if (leaseTooShort !== undefined) throw new UsageError(`--lease-ms: ${leaseTooShort.replace('the time limit', '--timeout-ms')}`);

  const google = readGoogleServeOptions(parsed, io);
  const signing = readSigningFiles(parsed, io);
  const wwdrFile = stringOption(parsed, 'wwdr');
  const secretKey = readSecretKeyOption(parsed, io);
  let signer: PassSigner | undefined;
  if (signing !== undefined) {
    try {
      signer = await createPassSigner(signing.options);
    } catch (error) {
      if (!(error instanceof SignerError)) throw error;
      for (const issue of error.issues)
        io.stderr(`${signing.names[issue.path] ?? (issue.path || 'signer')}: ${issue.severity} ${issue.code} ${issue.message}\n`);
      return EXIT_FAILED;
    }
  }
  // Uploaded certificates push with their own APNs client, in the same environment.
  const apnsFor =
    apnsEnvironment === undefined
      ? undefined
      : (identity: ApnsIdentity) =>
          createApnsClient({ certificate: { cert: identity.certificatePem, key: identity.privateKeyPem }, environment: apnsEnvironment });
  let apns: ApnsClient | undefined;
  if (apnsEnvironment !== undefined && signing !== undefined) {
    const { certificate, privateKey, passphrase } = signing.options;
    apns = createApnsClient({
      certificate: { cert: certificate, key: privateKey, ...(passphrase === undefined ? {} : { passphrase }) },
      environment: apnsEnvironment,
    });
  }

  // The data folder, its files and anything else this process writes are its user's alone (0700 / 0600).
  setPrivateUmask();
  let server: PassmintServer;
  try {
    server = await createServer({
      databaseUrl,
      dataDir,
      signer,
      apns,
      apnsFor,
      secretKey,
      ...(signing === undefined && wwdrFile !== undefined ? { wwdr: keyMaterial(readInput(io, wwdrFile, 'the WWDR certificate')) } : {}),
      google,
      publicUrl,
      issuer: { teamIdentifier: stringOption(parsed, 'team-id'), organizationName: stringOption(parsed, 'organization') },
      delivery: {
        allowPrivateNetworks: flag(parsed, 'allow-private-webhooks'),
        pollMs: positiveInteger('--poll-ms', stringOption(parsed, 'poll-ms')),
        leaseMs,
        timeoutMs,
        webhookConcurrency: positiveInteger('--webhook-concurrency', stringOption(parsed, 'webhook-concurrency')),
      },
      metricsToken: stringOption(parsed, 'metrics-token'),
      retentionDays,
      auditRetentionDays,
      limits,
      databaseLimits,
      log: (entry) => io.stdout(`${JSON.stringify(entry)}\n`),
      // An internal error is one JSON line on stdout like every event (its stack only with --debug).
      onError: (error, where) => {
        if (isDatabaseUnavailable(error)) {
          io.stderr(
            `passmint serve: the database cannot be reached (${error instanceof Error ? error.message : String(error)}); the API answers 503 and the workers retry until it is back\n`,
          );
        } else io.stdout(`${JSON.stringify(errorLogEntry(error, where, { debug: flag(parsed, 'debug') }))}\n`);
      },
    });
  } catch (error) {
    if (error instanceof SecretKeyError) {
      io.stderr(`passmint serve: ${error.message}\n`);
      await apns?.close();
      return EXIT_FAILED;
    }
    if (error instanceof MissingPackageError) {
      io.stderr(`passmint serve: ${missingPackageAdvice(error)}\n`);
      await apns?.close();
      return EXIT_FAILED;
    }
    // The database cannot be reached or opened: say which, without the URL's password.
    io.stderr(
      `passmint serve: cannot open the database (${databaseUrl === undefined ? dataDir : redact(databaseUrl)}): ${error instanceof Error ? error.message : String(error)}\n`,
    );
    if (databaseUrl !== undefined) {
      io.stderr(
        'Check that the PostgreSQL server is running and reachable from here, and the user, password, host, port and database name in DATABASE_URL (or --database-url).\n',
      );
    }
    await apns?.close();
    return EXIT_FAILED;
  }

  // Listen for SIGINT/SIGTERM before the port opens: a stop asked for while the
  // service is starting (a supervisor, a test) still closes it cleanly.
  const stopRequested = new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });

  let listening: { url: string };
  try {
    listening = await server.listen(port, host);
  } catch (error) {
    io.stderr(`passmint serve: cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}\n`);
    const advice = listenAdvice(error);
    if (advice !== undefined) io.stderr(`${advice}\n`);
    await server.close();
    await apns?.close();
    return EXIT_FAILED;
  }
  const where = databaseUrl === undefined ? `PGlite in ${dataDir}` : `PostgreSQL at ${redact(databaseUrl)}`;
  io.stdout(`passmint serve: listening on ${listening.url} (${where})\n`);
  if (server.firstApiKey !== undefined) {
    io.stdout(`API key (shown once; only its hash is stored): ${server.firstApiKey}\n`);
  }
  // CSV imports load the optional csv-parse when a file arrives: a missing one is said once, at the start.
  if (!(await loadable('csv-parse'))) {
    io.stderr(
      'passmint serve: the package csv-parse is not installed: CSV imports are refused (415) until it is installed (npm install csv-parse) and passmint serve restarted; JSON lines imports need nothing.\n',
    );
  }
  // Before the signing line, which tells a supervisor (and the tests) that start-up is done.
  if (google !== undefined) {
    io.stdout(
      `Google Wallet: issuer ${google.issuerId} (${google.credentials.clientEmail})${publicUrl === undefined ? '; give --public-url (https) so Google can fetch images and send save/delete callbacks' : ''}.\n`,
    );
  }
  io.stdout(
    signer === undefined
      ? 'Passes are not signed until a certificate is uploaded (POST /v1/certificates) or given at start (--cert, --key and --wwdr).\n'
      : `Signing as ${signer.passTypeIdentifier} (team ${signer.teamIdentifier})${apnsEnvironment === undefined ? '' : `; pushing updates through APNs (${apnsEnvironment})`}.\n`,
  );

  await stopRequested;
  io.stdout('passmint serve: stopping\n');
  await server.close();
  await apns?.close();
  return EXIT_OK;
}

/** Whether an optional package loads beside the service (its name a variable: a bundler leaves it to be found at run time). */
async function loadable(name: string): Promise<boolean> {
  try {
    await import(name);
    return true;
  } catch {
    return false;
  }
}

/** What to do when the port cannot be had: the two failures a user can fix by choosing differently. */
function listenAdvice(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  if (code === 'EADDRINUSE') return 'Another program listens on that port: stop it, or choose another with --port (or $PORT; 0 takes any free port).';
  if (code === 'EACCES') return 'Ports below 1024 need privileges: choose --port 1024 or above, behind a proxy.';
  if (code === 'EADDRNOTAVAIL') return "That address is not one of this machine's: give --host 127.0.0.1, or 0.0.0.0 for every interface.";
  return undefined;
}

/** A database URL without its password, for messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.href;
  } catch {
    return 'the given URL';
  }
}

function readSigningFiles(
  parsed: ParsedCommandLine,
  io: CliIo,
):
  | {
      options: { certificate: string | Uint8Array; privateKey: string | Uint8Array; wwdr: string | Uint8Array; passphrase?: string };
      names: Record<string, string>;
    }
  | undefined {
  const certFile = stringOption(parsed, 'cert');
  const keyFile = stringOption(parsed, 'key');
  const wwdrFile = stringOption(parsed, 'wwdr');
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined || wwdrFile === undefined) {
    throw new UsageError('signing needs all three: --cert, --key and --wwdr');
  }
  const passphrase = readPassphrase(parsed, io);
  return {
    options: {
      certificate: keyMaterial(readInput(io, certFile, 'the certificate')),
      privateKey: keyMaterial(readInput(io, keyFile, 'the private key')),
      wwdr: keyMaterial(readInput(io, wwdrFile, 'the WWDR certificate')),
      ...(passphrase === undefined ? {} : { passphrase }),
    },
    names: { '/certificate': certFile, '/privateKey': keyFile, '/wwdr': wwdrFile },
  };
}

/**
 * The secret key from --secret-key-file, or PASSMINT_SECRET_KEY (an environment variable only: never an
 * argument, which the process list shows); `undefined` for the default.
 */
function readSecretKeyOption(parsed: ParsedCommandLine, io: CliIo): Uint8Array | undefined {
  const file = stringOption(parsed, 'secret-key-file');
  const text = file === undefined ? io.env['PASSMINT_SECRET_KEY'] : new TextDecoder().decode(readInput(io, file, 'the secret key'));
  if (text === undefined || text === '') return undefined;
  try {
    return readSecretKey(text);
  } catch (error) {
    throw new UsageError(`${file ?? 'PASSMINT_SECRET_KEY'}: ${(error as Error).message}`);
  }
}

/** PEM stays text; anything else is DER bytes. */
function keyMaterial(bytes: Uint8Array): string | Uint8Array {
  const text = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
  return text.includes('-----BEGIN') ? new TextDecoder().decode(bytes) : bytes;
}

/** Clears the group and others bits of the umask (in a worker thread, where it cannot be set, nothing). */
function setPrivateUmask(): void {
  try {
    process.umask(process.umask(0o077) | 0o077);
  } catch {
    // Worker threads share the process's umask and cannot change it.
  }
}
