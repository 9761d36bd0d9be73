// passmint import: a CSV or JSON lines file made into passes by a running service (an import job), followed to its end.
import { createReadStream, statSync } from 'node:fs';
import { extname } from 'node:path';
import { Readable } from 'node:stream';
import { flag, parseCommandLine, stringOption } from './args.js';
import type { Command } from './command.js';
import { reason, resolvePath } from './files.js';
import { EXIT_FAILED, EXIT_OK, type CliIo, type ExitCode } from './io.js';
import { UsageError } from './usage-error.js';

const USAGE = `Usage: passmint import FILE --template ID [--upsert] [options]

Makes a pass of every record of FILE, through a running passmint serve
(POST /v1/templates/{id}/imports): CSV with a header row naming the columns
(the template's placeholders, and serialNumber if you choose the serial
numbers), or JSON lines (one object of values per line). The file is sent as
it is read; the service checks and stores it, then imports it as a job, which
this command follows to its end (a progress line on a terminal). Then it
prints each failed row with its problem.

Options:
  --template ID      the template (required)
  --upsert           a row whose serialNumber names an existing pass changes its values
                     (a new version only where the pass changed); without it every row is a new pass
  --format FORMAT    csv or ndjson (default: from the file's extension, .ndjson/.jsonl/.json are JSON lines, else CSV)
  --url URL          the service (default $PASSMINT_URL, else http://127.0.0.1:8080)
  --key KEY          an API key with the passes scope (default $PASSMINT_API_KEY)
  -h, --help         this text

Exit codes: 0 every row imported, 1 some rows failed (or the service refused the
file, could not be reached, or the job did not succeed), 2 usage.

Example:
  passmint import members.csv --template 7 --upsert
`;

/** `passmint import`: a file of records made into passes by a running service. */
export const importCommand: Command = {
  name: 'import',
  summary: 'Import passes from a CSV or JSON lines file into a running service',
  usage: USAGE,
  run: runImport,
};

/** How often the job is read while it runs, in ms (PASSMINT_IMPORT_POLL_MS for tests). */
const POLL_MS = 500;

interface Job {
  id: string;
  state: string;
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  error: string | null;
  finishedAt: string | null;
}

interface ProblemBody {
  code?: string;
  detail?: string;
  issues?: { path?: string; message?: string }[];
}

const number = (n: number): string => n.toLocaleString('en-US');

/** A problem answer's text for a message: its code and detail (or the body's text). */
async function problemOf(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const problem = JSON.parse(text) as ProblemBody;
    return `${problem.code ?? response.status}: ${problem.detail ?? ''}`.trim();
  } catch {
    return `${response.status} ${text.trim()}`.trim();
  }
}

async function runImport(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const parsed = parseCommandLine(args, {
    template: { type: 'string' },
    upsert: { type: 'boolean' },
    format: { type: 'string' },
    url: { type: 'string' },
    key: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (flag(parsed, 'help')) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  if (parsed.positionals.length !== 1) throw new UsageError('give one file to import: passmint import FILE --template ID');
  const file = parsed.positionals[0]!;
  const template = stringOption(parsed, 'template');
  if (template === undefined || !/^[1-9]\d{0,9}$/.test(template)) throw new UsageError("--template ID is required (the template's id, a whole number).");
  const format = stringOption(parsed, 'format') ?? (['.ndjson', '.jsonl', '.json'].includes(extname(file).toLowerCase()) ? 'ndjson' : 'csv');
  if (format !== 'csv' && format !== 'ndjson') throw new UsageError(`--format is csv or ndjson, not ${JSON.stringify(format)}.`);
  const key = stringOption(parsed, 'key') ?? io.env['PASSMINT_API_KEY'];
  if (key === undefined || key === '') throw new UsageError('an API key is required: --key KEY or PASSMINT_API_KEY.');
  const base = stringOption(parsed, 'url') ?? io.env['PASSMINT_URL'] ?? 'http://127.0.0.1:8080';
  let url: URL;
  try {
    url = new URL(`/v1/templates/${template}/imports`, base);
  } catch {
    throw new UsageError(`--url ${JSON.stringify(base)} is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--url must be http or https.');
  if (flag(parsed, 'upsert')) url.searchParams.set('mode', 'upsert');
  const path = resolvePath(io, file);
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
    size = stat.size;
  } catch (error) {
    throw new UsageError(`Cannot read the file ${file}: ${reason(error)}`);
  }
  const authorization = `Bearer ${key}`;
  const pollMs = Number(io.env['PASSMINT_IMPORT_POLL_MS'] ?? POLL_MS) || POLL_MS;

  // The upload: the file streamed as it is read, with its length (a file past the service's limit is refused at once).
  let answer: Response;
  try {
    answer = await fetch(url, {
      method: 'POST',
      headers: { authorization, 'content-type': format === 'csv' ? 'text/csv' : 'application/x-ndjson', 'content-length': String(size) },
      body: Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>,
      duplex: 'half',
    } as RequestInit);
  } catch (error) {
    io.stderr(`passmint import: cannot reach ${url.origin}: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}\n`);
    return EXIT_FAILED;
  }
  if (answer.status !== 202) {
    io.stderr(`passmint import: the service refused the file (${answer.status} ${await problemOf(answer)})\n`);
    return EXIT_FAILED;
  }
  let job = (await answer.json()) as Job;
  const jobUrl = new URL(`/v1/jobs/${job.id}`, url);

  // Followed to its end: a progress line on a terminal.
  const tty = process.stderr.isTTY === true && io.env['PASSMINT_NO_PROGRESS'] === undefined;
  const progress = (): string => {
    const done = job.created + job.updated + job.unchanged + job.failed;
    return `passmint import: ${number(done)} of ${number(job.rows)} rows (${number(job.created)} created, ${number(job.updated)} updated, ${number(job.unchanged)} unchanged, ${number(job.failed)} failed)`;
  };
  while (job.finishedAt === null) {
    if (tty) io.stderr(`\r${progress()}\u001b[K`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    try {
      const response = await fetch(jobUrl, { headers: { authorization } });
      if (!response.ok) {
        io.stderr(`${tty ? '\n' : ''}passmint import: cannot read the job ${job.id} (${response.status} ${await problemOf(response)})\n`);
        return EXIT_FAILED;
      }
      job = (await response.json()) as Job;
    } catch (error) {
      io.stderr(`${tty ? '\n' : ''}passmint import: lost the service while following job ${job.id}: ${(error as Error).message}\n`);
      return EXIT_FAILED;
    }
  }
  if (tty) io.stderr(`\r${progress()}\u001b[K\n`);

  // The failed rows, read from the results stream line by line.
  if (job.failed > 0) {
    try {
      const response = await fetch(new URL(`/v1/jobs/${job.id}/results`, url), { headers: { authorization } });
      if (!response.ok || response.body === null) throw new Error(`${response.status} ${await problemOf(response)}`);
      const decoder = new TextDecoder();
      let pending = '';
      const show = (line: string): void => {
        if (line === '') return;
        const result = JSON.parse(line) as { row: number; status: string; serialNumber: string | null; problem?: ProblemBody };
        if (result.status !== 'failed') return;
        const problem = result.problem ?? {};
        const serial = result.serialNumber === null ? '' : ` (${result.serialNumber})`;
        io.stdout(`row ${result.row}${serial}: ${problem.code ?? 'failed'}: ${problem.detail ?? ''}\n`);
        for (const issue of problem.issues ?? [])
          io.stdout(`  ${issue.path === undefined || issue.path === '' ? '' : `${issue.path}: `}${issue.message ?? ''}\n`);
      };
      for await (const chunk of response.body) {
        pending += decoder.decode(chunk, { stream: true });
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) show(line);
      }
      show(pending + decoder.decode());
    } catch (error) {
      io.stderr(`passmint import: cannot read the results of job ${job.id}: ${(error as Error).message}\n`);
    }
  }
  const counts = `${number(job.created)} created, ${number(job.updated)} updated, ${number(job.unchanged)} unchanged, ${number(job.failed)} failed`;
  if (job.state !== 'succeeded') {
    io.stderr(`passmint import: job ${job.id} ${job.state}${job.error === null ? '' : ` (${job.error})`} after ${counts}\n`);
    return EXIT_FAILED;
  }
  io.stdout(`Imported ${number(job.rows)} rows: ${counts} (job ${job.id}).\n`);
  return job.failed > 0 ? EXIT_FAILED : EXIT_OK;
}
