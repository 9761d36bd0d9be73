import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSecretBox, migrate, openPglite, openPostgres, readSecretKey, rotateSecrets, SecretKeyError, type SqlDatabase } from '../server/index.js';
import { flag, stringOption, type OptionTable } from './args.js';
import { environmentHelp, parseWithEnvironment } from './env-options.js';
import { resolvePath } from './files.js';
import { EXIT_FAILED, EXIT_OK, type CliIo, type ExitCode } from './io.js';
import { UsageError } from './usage-error.js';

const OPTIONS: OptionTable = {
  data: { type: 'string' },
  'database-url': { type: 'string' },
  'secret-key-file': { type: 'string' },
  'new-key-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

/** The file a PGlite data folder keeps its own secret key in (made by the service when none is given). */
const FOLDER_KEY_FILE = 'passmint-secret.key';

/** `passmint serve secrets --help`. */
export const SERVE_SECRETS_USAGE: string = `Usage: passmint serve secrets rotate --new-key-file FILE [options]

Re-wraps every secret the service stores (certificates' private keys,
webhook secrets, Google's service account) under a new secret key, in one
transaction: each secret's data key is wrapped again; the data is not
re-encrypted. The current key is PASSMINT_SECRET_KEY, --secret-key-file, or
the data folder's own (${FOLDER_KEY_FILE}), which is replaced by the new one.

Make the new key with: openssl rand -base64 32 > new.key (then chmod 600).
With a PGlite data folder, stop \`passmint serve\` first. With PostgreSQL,
restart every process with the new key afterwards: until then, a process
still on the old key cannot open the secrets (its deliveries wait and retry).

Options:
  --new-key-file FILE     the new key (32 random bytes in base64)
  --secret-key-file FILE  the current key (default: $PASSMINT_SECRET_KEY, or the data folder's)
  --data DIR              the PGlite data folder (default ./passmint-data); ignored with DATABASE_URL
  --database-url URL      a PostgreSQL server (default: $DATABASE_URL)
  -h, --help              this text

Environment (the command line wins):
${environmentHelp(OPTIONS)}`;

/** `passmint serve secrets rotate`: every stored secret re-wrapped under a new key, without a running service (PGlite) or beside it (PostgreSQL). */
export async function runServeSecrets(args: readonly string[], io: CliIo): Promise<ExitCode> {
  try {
    return await serveSecrets(args, io);
  } catch (error) {
    if (error instanceof UsageError && error.command === undefined) throw new UsageError(error.message, { command: 'serve secrets' });
    throw error;
  }
}

async function serveSecrets(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const parsed = parseWithEnvironment(args, OPTIONS, io.env);
  if (flag(parsed, 'help')) {
    io.stdout(SERVE_SECRETS_USAGE);
    return EXIT_OK;
  }
  const [action, ...rest] = parsed.positionals;
  if (action !== 'rotate') throw new UsageError(action === undefined ? 'secrets needs rotate' : `secrets has rotate, not "${action}"`);
  if (rest.length > 0) throw new UsageError(`secrets rotate takes no other words (given: ${rest.join(' ')})`);
  const newKeyFile = stringOption(parsed, 'new-key-file');
  if (newKeyFile === undefined) throw new UsageError('secrets rotate needs --new-key-file (make one: openssl rand -base64 32 > new.key)');
  const databaseUrl = stringOption(parsed, 'database-url') ?? io.env['DATABASE_URL'];
  const onPostgres = databaseUrl !== undefined && databaseUrl !== '';
  const dataDir = resolvePath(io, stringOption(parsed, 'data') ?? 'passmint-data');
  const next = keyFrom(readFileSync(resolvePath(io, newKeyFile), 'utf8'), '--new-key-file');
  const currentFile = stringOption(parsed, 'secret-key-file');
  const folderKey = join(dataDir, FOLDER_KEY_FILE);
  const currentText =
    currentFile !== undefined
      ? readFileSync(resolvePath(io, currentFile), 'utf8')
      : (io.env['PASSMINT_SECRET_KEY'] ?? (!onPostgres && existsSync(folderKey) ? readFileSync(folderKey, 'utf8') : undefined));
  if (currentText === undefined) throw new UsageError('give the current key: PASSMINT_SECRET_KEY or --secret-key-file');
  const current = keyFrom(currentText, currentFile === undefined ? 'PASSMINT_SECRET_KEY' : '--secret-key-file');

  let db: SqlDatabase;
  try {
    db = onPostgres ? await openPostgres({ connectionString: databaseUrl, max: 1 }) : await openPglite({ dataDir });
  } catch (error) {
    io.stderr(`passmint serve secrets: cannot open the database: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_FAILED;
  }
  try {
    await migrate(db);
    const [from, to] = [createSecretBox(current), createSecretBox(next)];
    const counts = await rotateSecrets(db, from, to);
    // The folder's own key follows the rotation (written whole, then renamed over the old one).
    const usedFolderKey = !onPostgres && currentFile === undefined && io.env['PASSMINT_SECRET_KEY'] === undefined;
    if (usedFolderKey) {
      writeFileSync(`${folderKey}.new`, `${Buffer.from(next).toString('base64')}\n`, { mode: 0o600 });
      renameSync(`${folderKey}.new`, folderKey);
    }
    io.stdout(
      `Re-wrapped ${counts.certificates} private key(s), ${counts.webhooks} webhook secret(s) and ${counts.google} Google account(s) from key ${from.keyId} to ${to.keyId}.\n` +
        (usedFolderKey
          ? `${folderKey} now holds the new key.\n`
          : 'Start the service with the new key from now on (PASSMINT_SECRET_KEY or --secret-key-file).\n'),
    );
    return EXIT_OK;
  } catch (error) {
    if (!(error instanceof SecretKeyError)) throw error;
    io.stderr(`passmint serve secrets: ${error.message}\n`);
    return EXIT_FAILED;
  } finally {
    await db.close();
  }
}

function keyFrom(text: string, name: string): Uint8Array {
  try {
    return readSecretKey(text);
  } catch (error) {
    throw new UsageError(`${name}: ${(error as Error).message}`);
  }
}
