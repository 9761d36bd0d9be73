import { existsSync } from 'node:fs';
import {
  createApiKey,
  keyRequest,
  keyResource,
  listApiKeys,
  migrate,
  MissingPackageError,
  openPglite,
  openPostgres,
  revokeApiKey,
  ServiceProblem,
  type ApiKeyRecord,
  type SqlDatabase,
} from '../server/index.js';
import { flag, stringOption, stringOptions, type OptionTable } from './args.js';
import { environmentHelp, parseWithEnvironment } from './env-options.js';
import { resolvePath } from './files.js';
import { missingPackageAdvice } from './missing-package-advice.js';
import { EXIT_FAILED, EXIT_OK, type CliIo, type ExitCode } from './io.js';
import { UsageError } from './usage-error.js';

const OPTIONS: OptionTable = {
  data: { type: 'string' },
  'database-url': { type: 'string' },
  name: { type: 'string' },
  scopes: { type: 'string' },
  template: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

/** `passmint serve keys --help`. */
export const SERVE_KEYS_USAGE: string = `Usage: passmint serve keys create --name NAME --scopes SCOPES [options]
       passmint serve keys list [options]
       passmint serve keys revoke ID [options]

Manages the service's API keys directly in its database, without a running
service: for when the only admin key is lost. The same as POST, GET and
DELETE /v1/keys. A key is shown once, when it is created; only its SHA-256
is stored.

Scopes (comma-separated): read (every GET), passes (create passes, change
their values, delete them; and read), admin (everything, keys included).

With a PGlite data folder, stop \`passmint serve\` first: one process at a
time opens a folder. With PostgreSQL (DATABASE_URL) the service may run; it
sees a new or revoked key within a second.

Options:
  --data DIR              the PGlite data folder (default ./passmint-data); ignored with DATABASE_URL
  --database-url URL      a PostgreSQL server (default: $DATABASE_URL)
  --name NAME             create: what the key is for (1 to 100 characters)
  --scopes LIST           create: read, passes, admin, comma-separated
  --template ID           create: limit the key to this template and its passes (repeat for more)
  --json                  print JSON instead of text
  -h, --help              this text

Environment (the command line wins):
${environmentHelp(OPTIONS)}
Examples:
  passmint serve keys create --name "rescue" --scopes admin --data ./passmint-data
  DATABASE_URL=postgres://passmint@db.internal/passmint passmint serve keys list
  passmint serve keys revoke 0b6f9a52-2c1e-4c55-9a53-3f1f2b0f8f0e
`;

/** `passmint serve keys create|list|revoke`: API keys on the data folder or DATABASE_URL, without a running service. */
export async function runServeKeys(args: readonly string[], io: CliIo): Promise<ExitCode> {
  try {
    return await serveKeys(args, io);
  } catch (error) {
    // A usage error names this command and its --help, not `passmint serve`'s.
    if (error instanceof UsageError && error.command === undefined) throw new UsageError(error.message, { command: 'serve keys' });
    throw error;
  }
}

async function serveKeys(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const parsed = parseWithEnvironment(args, OPTIONS, io.env);
  if (flag(parsed, 'help')) {
    io.stdout(SERVE_KEYS_USAGE);
    return EXIT_OK;
  }
  const [action, ...rest] = parsed.positionals;
  if (action !== 'create' && action !== 'list' && action !== 'revoke') {
    throw new UsageError(action === undefined ? 'keys needs create, list or revoke' : `keys has create, list and revoke, not "${action}"`);
  }
  if (action === 'revoke' ? rest.length !== 1 : rest.length > 0) {
    throw new UsageError(
      action === 'revoke' ? 'keys revoke takes one key id (see keys list)' : `keys ${action} takes no other words (given: ${rest.join(' ')})`,
    );
  }
  const asJson = flag(parsed, 'json');
  let request: ReturnType<typeof keyRequest> | undefined;
  if (action === 'create') {
    const scopes = stringOption(parsed, 'scopes');
    if (stringOption(parsed, 'name') === undefined || scopes === undefined) throw new UsageError('keys create needs --name and --scopes');
    try {
      const templates = stringOptions(parsed, 'template').map((id) => (/^\d{1,10}$/.test(id) ? Number(id) : id));
      request = keyRequest({
        name: stringOption(parsed, 'name'),
        scopes: scopes.split(',').map((scope) => scope.trim()),
        ...(templates.length > 0 ? { templateIds: templates } : {}),
      });
    } catch (error) {
      if (error instanceof ServiceProblem) {
        throw new UsageError((error.issues ?? []).map((issue) => issue.message.replaceAll('`templateIds`', '--template').replaceAll('`', '--')).join('; '));
      }
      throw error;
    }
  }

  const databaseUrl = stringOption(parsed, 'database-url') ?? io.env['DATABASE_URL'];
  const dataDir = resolvePath(io, stringOption(parsed, 'data') ?? 'passmint-data');
  const db = await open(databaseUrl, dataDir, io);
  if (db === undefined) return EXIT_FAILED;
  try {
    await migrate(db);
    if (action === 'create') {
      let created: Awaited<ReturnType<typeof createApiKey>>;
      try {
        created = await createApiKey(db, { ...request!, commandLine: true });
      } catch (error) {
        if (!(error instanceof ServiceProblem)) throw error;
        io.stderr(`passmint serve keys: ${(error.issues ?? []).map((issue) => issue.message).join('; ') || error.message}\n`);
        return EXIT_FAILED;
      }
      const { key, record } = created;
      if (asJson) io.stdout(`${JSON.stringify({ ...keyResource(record), key })}\n`);
      else
        io.stdout(
          `Created API key ${record.id} "${record.name}" (${record.scopes.join(', ')}${record.templateIds === null ? '' : `; templates ${record.templateIds.join(', ')} only`}).\nKey (shown once; only its hash is stored): ${key}\n`,
        );
    } else if (action === 'list') {
      const keys = await listApiKeys(db);
      if (asJson) io.stdout(`${JSON.stringify({ items: keys.map(keyResource) })}\n`);
      else io.stdout(table(keys));
    } else {
      const record = await revokeApiKey(db, rest[0]!, { commandLine: true });
      if (record === undefined) {
        io.stderr(`passmint serve keys: no active API key ${JSON.stringify(rest[0])} (see passmint serve keys list)\n`);
        return EXIT_FAILED;
      }
      if (asJson) io.stdout(`${JSON.stringify(keyResource(record))}\n`);
      else io.stdout(`Revoked API key ${record.id} "${record.name}".\n`);
    }
    return EXIT_OK;
  } finally {
    await db.close();
  }
}

/** Opens the database, or says why it cannot (the folder in use by a running service above all). */
async function open(databaseUrl: string | undefined, dataDir: string, io: CliIo): Promise<SqlDatabase | undefined> {
  if (databaseUrl !== undefined && databaseUrl !== '') {
    try {
      return await openPostgres({ connectionString: databaseUrl, max: 1 });
    } catch (error) {
      io.stderr(
        error instanceof MissingPackageError
          ? `passmint serve keys: ${missingPackageAdvice(error)}\n`
          : `passmint serve keys: cannot reach the PostgreSQL server: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return undefined;
    }
  }
  if (!existsSync(dataDir)) {
    io.stderr(`passmint serve keys: there is no data folder at ${dataDir}: give the one passmint serve uses (--data), or --database-url\n`);
    return undefined;
  }
  try {
    return await openPglite({ dataDir });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const running = /in use by process (\d+)/.exec(message);
    io.stderr(
      running === null
        ? `passmint serve keys: cannot open the data folder ${dataDir}: ${message}\n`
        : `passmint serve keys: the data folder ${dataDir} is in use by process ${running[1]} (a running passmint serve). ` +
            'Stop it first: PGlite lets one process open a folder at a time. (On PostgreSQL, keys can be managed while the service runs.)\n',
    );
    return undefined;
  }
}

function table(keys: readonly ApiKeyRecord[]): string {
  if (keys.length === 0) return 'No active API keys. Create one with: passmint serve keys create --name NAME --scopes admin\n';
  const rows = [
    ['ID', 'PREFIX', 'SCOPES', 'CREATED', 'LAST USED', 'NAME'],
    ...keys.map((key) => [
      key.id,
      key.prefix ?? '-',
      key.scopes.join(','),
      key.created.toISOString().slice(0, 19) + 'Z',
      key.lastUsed === null ? 'never' : key.lastUsed.toISOString().slice(0, 19) + 'Z',
      key.name,
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')).join('\n') + '\n';
}
