#!/usr/bin/env node
// The `passmint` command. Node only: it reads and writes files and the
// environment; the library it drives stays portable.
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { closestName } from '../suggest.js';
import { cert } from './cert.js';
import type { Command } from './command.js';
import { exportCommand } from './export.js';
import { google } from './google.js';
import { importCommand } from './import.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo, type ExitCode } from './io.js';
import { lint } from './lint.js';
import { pack } from './pack.js';
import { render } from './render.js';
import { serve } from './serve.js';
import { UsageError } from './usage-error.js';
import { verify } from './verify.js';

const COMMANDS: readonly Command[] = [lint, render, pack, verify, cert, google, serve, importCommand, exportCommand];

/**
 * Runs one `passmint` command line (without the `node` and script words) and
 * returns its exit code: 0 done, 1 what was checked has errors, 2 usage error.
 * Everything goes through `io`, so a test sees exactly what a user would.
 *
 * @example
 * ```ts
 * const code = await run(['lint', 'template.json'], { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t), cwd: process.cwd(), env: process.env });
 * ```
 */
export async function run(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const [name, ...args] = argv;
  if (name === undefined) {
    io.stderr(overview());
    return EXIT_USAGE;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? COMMANDS.find((command) => command.name === args[0]) : undefined;
    io.stdout(topic === undefined ? overview() : topic.usage);
    return EXIT_OK;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${version()}\n`);
    return EXIT_OK;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command === undefined) {
    const guess = closestName(
      name,
      COMMANDS.map((candidate) => candidate.name),
    );
    io.stderr(
      `passmint: unknown command "${name}"${guess === undefined ? '' : ` — did you mean "${guess}"?`}\n` +
        `Commands: ${COMMANDS.map((candidate) => candidate.name).join(', ')}. Run \`passmint --help\` for more.\n`,
    );
    return EXIT_USAGE;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      const name = error.command ?? command.name;
      io.stderr(`passmint ${name}: ${error.message}\nRun \`passmint ${name} --help\` for usage.\n`);
      return EXIT_USAGE;
    }
    // A bug, not the user's doing: say so plainly, with what is needed to report it.
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr(`passmint ${command.name}: unexpected error (please report it with the command you ran):\n${detail}\n`);
    return EXIT_FAILED;
  }
}

function overview(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    'Usage: passmint <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'Run `passmint <command> --help` for the options of one command.',
    'Exit codes: 0 done, 1 what was checked has errors, 2 the command line is wrong.',
    '',
  ].join('\n');
}

function version(): string {
  // src/cli/main.ts and dist/cli/main.js both sit two folders below package.json.
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}

/** The real process's streams, working directory and environment. */
function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
  };
}

// Run only as the program (npm's bin link is a symlink: compare real paths),
// not when a test imports `run`.
function isMain(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  // exitCode, not exit(): let stdout drain when it is a pipe.
  process.exitCode = await run(process.argv.slice(2), processIo());
}
