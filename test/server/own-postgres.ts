// A PostgreSQL server of a test's own, in a temporary folder on a free port,
// which the test may stop (`-m immediate`) and start again — never the shared
// one on 5432. PostgreSQL refuses to run as root: as root, the server runs as
// the `postgres` user (runuser) in a folder that user owns.
import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export interface OwnPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  readonly port: number;
  start(): Promise<void>;
  /** `pg_ctl stop -m immediate`: every backend killed, no checkpoint (crash recovery at the next start). */
  stopImmediately(): Promise<void>;
  /** Ends every backend of other sessions (pg_terminate_backend); resolves to how many. */
  terminateBackends(): Promise<number>;
  /** Stops it and removes its folder. */
  remove(): Promise<void>;
}

function binDir(): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  if (versions[0] === undefined) throw new Error('No PostgreSQL under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function createOwnPostgres(): Promise<OwnPostgres> {
  const bin = binDir();
  const root = process.getuid?.() === 0;
  const folder = mkdtempSync(join(tmpdir(), 'passmint-own-pg-'));
  const data = join(folder, 'data');
  const as = async (command: string, args: readonly string[]): Promise<void> => {
    if (root) await run('runuser', ['-u', 'postgres', '--', `${bin}/${command}`, ...args], { cwd: folder });
    else await run(`${bin}/${command}`, [...args], { cwd: folder });
  };
  if (root) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    chownSync(folder, Number(stdout.trim()), Number(group.trim()));
  }
  await as('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60 -c shared_buffers=16MB`;

  const query = async <TRow>(text: string): Promise<TRow[]> => {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query(text)).rows as TRow[];
    } finally {
      await client.end();
    }
  };

  return {
    url,
    port,
    start: () => as('pg_ctl', ['start', '-w', '-D', data, '-l', join(folder, 'log'), '-o', options]),
    stopImmediately: () => as('pg_ctl', ['stop', '-w', '-m', 'immediate', '-D', data]),
    async terminateBackends() {
      const rows = await query<{ ended: boolean }>(
        `select pg_terminate_backend(pid) as ended from pg_stat_activity where pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      return rows.filter((row) => row.ended).length;
    },
    async remove() {
      await as('pg_ctl', ['stop', '-w', '-m', 'immediate', '-D', data]).catch(() => undefined);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
