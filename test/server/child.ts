// `passmint serve` as a real child process: the CLI bundled from src/ with
// rolldown (the `node` conditions, as Node resolves the package), written
// under node_modules/.cache so the bundle finds `pg` and PGlite the way an
// installed passmint does.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { TEST_SECRET_KEY } from './test-secret-key.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Bundles src/cli/main.ts (or another entry under the project); returns the script path and how to remove it. */
export async function bundleCli(entry = 'src/cli/main.ts'): Promise<{ script: string; remove: () => void }> {
  const dir = `${root}node_modules/.cache/passmint-serve-${crypto.randomUUID().slice(0, 8)}`;
  mkdirSync(dir, { recursive: true });
  const bundle = await rolldown({
    input: { main: `${root}${entry}` },
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] }, conditionNames: ['node', 'import', 'default'] },
    platform: 'node',
    external: [/^pg(\/|$)/, /^@electric-sql\//],
    logLevel: 'silent',
  });
  await bundle.write({ dir, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' });
  await bundle.close();
  return { script: `${dir}/main.js`, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ServeProcess {
  readonly child: ChildProcess;
  /** Where it listens, from its first line. */
  readonly url: string;
  /** Everything it printed so far. */
  readonly output: () => string;
  /** The first API key, when this start made one. */
  readonly apiKey: string | undefined;
  /** Resolves with the exit code or signal when it ends. */
  readonly exited: Promise<number | string>;
}

/**
 * Starts `passmint serve <args>` and waits until it says where it listens; with {@link TEST_SECRET_KEY} as
 * PASSMINT_SECRET_KEY unless `env` gives another (`''`: none).
 */
export function startServe(script: string, args: readonly string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [script, 'serve', '--port', '0', ...args], {
    env: { ...process.env, PASSMINT_SECRET_KEY: TEST_SECRET_KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`passmint serve did not start in time:\n${output}`));
    }, 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url === undefined || (!output.includes('Passes are') && !output.includes('Signing as'))) return;
      clearTimeout(timer);
      const apiKey = /API key[^:]*: (\S+)/.exec(output)?.[1];
      resolve({ child, url, output: () => output, apiKey, exited });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`passmint serve ended (${how}) before listening:\n${output}`));
    });
  });
}
