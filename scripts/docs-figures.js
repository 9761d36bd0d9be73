// The figures in README.md and docs/*.md come from bench/results.json, never by hand:
// every table between `<!-- figures:NAME -->` and `<!-- /figures:NAME -->` is
// rewritten from the file. NAME is a section of `npm run bench` (render,
// scaling, scan, hostile, webhooks, wallet, pkpass, server, service, scale, import, sizes),
// `all` (every row), `load` (`npm run load`'s per-route figures), `scaling`
// (`node bench/load.js --scale`: processes against one), or `bundle`
// and `latency` (the playground's build sizes and keystroke latency, written
// under `playground` by `npm run figures:playground`), `keystroke` (that
// latency in brief, for the README), `datasize` and `disk` (`node bench/scale.js`:
// routes and statements at 10,000 and 1,000,000 passes, bytes per row), `soak`
// (`node bench/soak.js`: resident memory over a long run).
//
//   node scripts/docs-figures.js           rewrite the tables
//   node scripts/docs-figures.js --check   exit 1, naming the files, when a table differs
//
// test/docs-figures.test.ts fails when a table differs from what results.json gives.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SECTIONS } from '../bench/lib/sections.js';

const MARKER = /<!-- figures:([a-z]+) -->\n[\s\S]*?<!-- \/figures:\1 -->/g;
const OPEN = /<!-- figures:([a-z]+) -->/g;

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
const day = (iso) => (typeof iso === 'string' ? iso.slice(0, 10) : 'unknown date');

function ratioText(row) {
  if (row.ratio === null || row.ratio === undefined || !Number.isFinite(row.ratio)) return '—';
  return `${row.ratio.toFixed(2)}×${/faster/.test(row.target) ? ' faster' : ''}`;
}

function rowsTable(results, name) {
  const rows = name === 'all' ? results.rows : results.rows.filter((row) => SECTIONS[name].test(row.name));
  if (rows.length === 0) return `_No \`${name}\` rows in bench/results.json: run \`node bench/run.js ${name} --write\`._`;
  // The import rows come from their own command (node bench/import.js, or npm run bench's section): results.import says which.
  const source = name === 'import' && typeof results.import?.command === 'string' ? results.import : results;
  const lines = [
    `\`${source.command}\`, ${day(source.date)}: ${source.environment}.`,
    '',
    '| measurement | passmint | baseline | ratio | target | result |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${[row.name, row.ours, row.baseline, ratioText(row), row.target, row.result].map(cell).join(' | ')} |`),
  ];
  return lines.join('\n');
}

const perSecond = (value) => (typeof value === 'number' ? `${value.toLocaleString('en')}/s` : '—');
const ms = (value) => (typeof value === 'number' ? `${value < 10 ? value.toFixed(1) : Math.round(value)} ms` : '—');
const latency = (side) =>
  side === null || side === undefined || side.p50Ms === null || side.p50Ms === undefined ? '—' : `${ms(side.p50Ms)} / ${ms(side.p99Ms)}`;

const cpu = (side) => (typeof side?.cpuMsPerRequest === 'number' ? `${side.cpuMsPerRequest.toFixed(2)} ms` : '—');

function loadTable(results) {
  const load = results.load;
  if (load === undefined) return '_No load run in bench/results.json yet: run `npm run load`._';
  const { clients, database, seconds, rounds, registrations, events, processes = 1 } = load.settings;
  const lines = [
    `\`${load.command}\`, ${day(load.date)}: ${load.environment}; ${clients} clients, ${processes === 1 ? '' : `${processes} serve processes, `}${database}, ${rounds} rounds of ${seconds} s per side and route; deliveries: ${registrations} registrations × ${events} events.`,
    '',
    '| route | passmint serve | p50 / p99 | CPU per request | bare baseline: what it does | bare | p50 / p99 | CPU per request | ratio | target |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...load.routes.map(
      (route) =>
        `| ${[
          route.name,
          route.failed === undefined ? perSecond(route.ours?.rps) : `not measured: ${route.failed}`,
          latency(route.ours),
          cpu(route.ours),
          route.baseline ?? '—',
          perSecond(route.bare?.rps),
          latency(route.bare),
          cpu(route.bare),
          typeof route.ratio === 'number' ? `${route.ratio.toFixed(2)}×` : '—',
          route.target ?? '—',
        ]
          .map(cell)
          .join(' | ')} |`,
    ),
  ];
  const errors = load.routes.filter((route) => (route.ours?.errors ?? 0) > 0 || (route.bare?.errors ?? 0) > 0);
  if (errors.length > 0)
    lines.push(
      '',
      `Answers other than 2xx (not counted in requests per second): ${errors.map((route) => `${route.route} ${route.ours?.errors ?? 0} (passmint) / ${route.bare?.errors ?? 0} (bare)`).join(', ')}.`,
    );
  return lines.join('\n');
}

const cores = (value) => (typeof value === 'number' ? value.toFixed(2) : '—');

function scalingTable(results) {
  const scaling = results.scaling;
  if (scaling === undefined) return '_No scaling run in bench/results.json yet: run `node bench/load.js --scale`._';
  const { clients, processes, rounds, seconds, database } = scaling.settings;
  const commit =
    typeof scaling.counterCommitMs === 'number'
      ? ` A commit that bumps one counter row took ${scaling.counterCommitMs.toFixed(3)} ms (about ${Math.round(1000 / scaling.counterCommitMs).toLocaleString('en')} a second).`
      : '';
  return [
    `\`${scaling.command}\`, ${day(scaling.date)}: ${scaling.environment}; ${clients} clients, ${database}, ${processes} \`passmint serve\` processes against 1, ${rounds} rounds of ${seconds} s each.${commit}`,
    '',
    `| route | 1 process | ${processes} processes | measured | CPU per request: passmint / PostgreSQL / clients | cores busy with 1 process: passmint / PostgreSQL / clients | 1 process with a core of its own | PostgreSQL cores for ${processes} at that rate | on paper, cores to spare |`,
    '|---|---|---|---|---|---|---|---|---|',
    ...scaling.routes.map((route) => {
      const one = route.one ?? {};
      const paper = route.paper;
      return `| ${[
        route.name,
        perSecond(one.rps),
        perSecond(route.all?.rps),
        typeof route.ratio === 'number' ? `${route.ratio.toFixed(2)}×` : '—',
        [one.cpuMsPerRequest, one.pgCpuMsPerRequest, one.clientCpuMsPerRequest]
          .map((value) => (typeof value === 'number' ? value.toFixed(2) : '—'))
          .join(' / ') + ' ms',
        paper === null ? '—' : [paper.coresServe, paper.coresPostgres, paper.coresClients].map(cores).join(' / '),
        paper === null ? '—' : perSecond(paper.ceilingPerProcess),
        paper === null ? '—' : cores(paper.postgresCoresAtCeiling),
        paper === null
          ? '—'
          : typeof paper.ratioOneCreatePerCommit === 'number' && paper.ratioOneCreatePerCommit < processes
            ? `${paper.ratio.toFixed(2)}× with one create per commit; ${processes.toFixed(2)}× with ${Math.ceil(processes / paper.ratioOneCreatePerCommit)} or more per commit`
            : `${paper.ratio.toFixed(2)}×`,
      ]
        .map(cell)
        .join(' | ')} |`;
    }),
  ].join('\n');
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

function bundleTable(results) {
  const bundle = results.playground?.bundle;
  if (bundle === undefined) return '_No playground build in bench/results.json yet: run `npm run figures:playground`._';
  return [
    `\`${bundle.command}\`, ${day(bundle.date)}: initial JavaScript ${kb(bundle.initialGzip)} gzipped of a ${bundle.budgetKb} KB budget.`,
    '',
    '| chunk | loaded | gzip -9 | raw |',
    '|---|---|---|---|',
    ...bundle.chunks.map((chunk) => `| ${[chunk.name, chunk.initial ? 'initial' : 'lazy', kb(chunk.gzip), kb(chunk.bytes)].map(cell).join(' | ')} |`),
  ].join('\n');
}

const pair = (side) => `${side.median.toFixed(1)} / ${side.p95.toFixed(1)} ms`;
const meets = (side, target) => (target.median === null || side.median <= target.median) && side.p95 <= target.p95;
/** Whether both keystrokes of a latency case meet its target, as the tables say it. */
const verdict = (row) => (meets(row.editor.painted, row.target) && meets(row.value.painted, row.target) ? 'met' : 'not met');
const targetText = (target) => [target.median === null ? '' : `median ≤ ${target.median}`, `p95 ≤ ${target.p95}`].filter(Boolean).join(', ');

function latencyTable(results) {
  const latency = results.playground?.latency;
  if (latency === undefined) return '_No latency run in bench/results.json yet: run `npm run figures:playground`._';
  const { start, end } = latency.loadAverage;
  const load = [start, end].map((value) => value.toFixed(1));
  return [
    `\`${latency.command}\`, ${day(latency.date)}: ${latency.environment}; load average ${load[0] === load[1] ? load[0] : `${load[0]} at the start, ${load[1]} at the end`}; ${latency.keystrokes} keystrokes per cell, after 3 warm-ups.`,
    '',
    '| template | editor: painted median / p95 | value: painted median / p95 | editor: DOM median / p95 | value: DOM median / p95 | editor: next frame median / p95 | value: next frame median / p95 | target (painted) | result |',
    '|---|---|---|---|---|---|---|---|---|',
    ...latency.cases.map(
      (row) =>
        `| ${[
          row.template,
          pair(row.editor.painted),
          pair(row.value.painted),
          pair(row.editor.dom),
          pair(row.value.dom),
          row.editor.frame === undefined ? '—' : pair(row.editor.frame),
          row.value.frame === undefined ? '—' : pair(row.value.frame),
          `${targetText(row.target)} ms`,
          verdict(row),
        ]
          .map(cell)
          .join(' | ')} |`,
    ),
  ].join('\n');
}

/** The playground's keystroke latency in brief, for the README: painted medians and p95s against the targets. */
function keystrokeSummary(results) {
  const latency = results.playground?.latency;
  if (latency === undefined) return '_No latency run in bench/results.json yet: run `npm run figures:playground`._';
  return [
    `Keydown → painted frame, median / p95, \`${latency.command}\` on ${day(latency.date)} (${latency.environment}):`,
    '',
    '| template | typing in the editor | typing in a value | target | result |',
    '|---|---|---|---|---|',
    ...latency.cases.map(
      (row) => `| ${[row.template, pair(row.editor.painted), pair(row.value.painted), `${targetText(row.target)} ms`, verdict(row)].map(cell).join(' | ')} |`,
    ),
  ].join('\n');
}

const msText = (value) => (typeof value === 'number' ? `${value < 10 ? value.toFixed(2) : Math.round(value).toLocaleString('en')} ms` : '—');
const count = (value) => (typeof value === 'number' ? value.toLocaleString('en') : '—');

/** `node bench/scale.js`: every route and statement at both sizes, side by side. */
function datasizeTable(results) {
  const scale = results.scale;
  if (scale === undefined) return '_No scale run in bench/results.json yet: run `node bench/scale.js`._';
  const [small, large] = scale.sizes;
  const built = scale.sizes.map((size) => `${count(size.passes)} passes in ${Math.round(size.buildSeconds)} s`).join(', ');
  const within = scale.results.filter((row) => typeof row.ratio === 'number' && row.ratio <= 1.5).length;
  return [
    `\`${scale.command}\`, ${day(scale.date)}: ${scale.environment}; PostgreSQL, built with SQL (${built}), ${scale.settings.rounds} alternating rounds of ${scale.settings.samples} samples; ${within} of ${scale.results.length} within 1.5×.`,
    '',
    `| what | kind | at ${count(small.passes)} passes | at ${count(large.passes)} passes | ratio | target | result |`,
    '|---|---|---|---|---|---|---|',
    ...scale.results.map(
      (row) =>
        `| ${[
          row.failed === undefined ? row.name : `${row.name} (not measured: ${row.failed})`,
          row.kind,
          msText(row.smallMs),
          msText(row.largeMs),
          typeof row.ratio === 'number' ? `${row.ratio.toFixed(2)}×` : '—',
          '≤ 1.5×',
          typeof row.ratio === 'number' && row.ratio <= 1.5 ? 'PASS' : 'FAIL',
        ]
          .map(cell)
          .join(' | ')} |`,
    ),
  ].join('\n');
}

const DISK_ROWS = { pass: 'a pass', event: 'an event', delivery: 'a delivery', attempt: 'an attempt', googleJob: 'a Google sync job' };

/** `node bench/scale.js`: the disk a row of each table takes at the large build, and what keeping the counts costs. */
function diskTable(results) {
  const scale = results.scale;
  if (scale === undefined) return '_No scale run in bench/results.json yet: run `node bench/scale.js`._';
  const large = scale.sizes.at(-1);
  const counting = scale.counting;
  const hot = scale.hot;
  return [
    `\`${scale.command}\`, ${day(scale.date)}, at ${count(large.passes)} passes (\`pg_total_relation_size\` over the rows, indexes and TOAST included, after VACUUM):`,
    '',
    '| a row of | table | bytes | of which heap | of which indexes | rows |',
    '|---|---|---|---|---|---|',
    ...Object.entries(large.disk).map(
      ([key, value]) =>
        `| ${[DISK_ROWS[key] ?? key, `\`${value.table}\``, count(value.bytesPerRow), count(value.heapPerRow), count(value.indexesPerRow), count(value.rows)].map(cell).join(' | ')} |`,
    ),
    ...(counting === undefined || counting === null
      ? []
      : [
          '',
          `Keeping the counts (the counting trigger's own time in PostgreSQL, median of ${counting.samples}): ${counting.insertUs} µs on a statement that queues deliveries, ${counting.recordUs} µs on one that records them delivered, ${counting.claimUs} µs on a claim (no state changed, nothing written).`,
        ]),
    ...(hot === undefined || hot === null || !(hot.updates > 0)
      ? []
      : ['', `While the service delivered (the delivery row above), ${count(hot.hot)} of ${count(hot.updates)} updates of \`passmint_deliveries\` were HOT.`]),
  ].join('\n');
}

/** `node bench/soak.js`: resident memory over the run, a line per minute (the largest sample of that minute). */
function soakTable(results) {
  const soak = results.soak;
  if (soak === undefined) return '_No soak in bench/results.json yet: run `node bench/soak.js`._';
  const byMinute = new Map();
  for (const sample of soak.samples) {
    if (typeof sample.rssMiB !== 'number') continue;
    const minute = Math.floor(sample.seconds / 60);
    const entry = byMinute.get(minute);
    if (entry === undefined || sample.rssMiB > entry.rssMiB) byMinute.set(minute, sample);
  }
  const top = Math.max(...[...byMinute.values()].map((sample) => sample.rssMiB));
  const { rss } = soak;
  return [
    `\`${soak.command}\`, ${day(soak.date)}: ${soak.environment}; ${soak.settings.minutes} minutes, ${soak.settings.database}, ${soak.settings.ratePerKind} a second each of creates, updates, downloads of a new version and Wallet fetches, two webhooks; ${count(soak.requests)} requests (${count(soak.errors)} answered other than 2xx${soak.skipped > 0 ? `, ${count(soak.skipped)} not sent while 64 were in flight` : ''}), ${count(soak.delivered)} deliveries. RSS ${rss.firstMiB} MiB at the start, at most ${rss.maxMiB} MiB; the last third's peak ${rss.lastThirdMaxMiB} MiB against the middle third's ${rss.middleThirdMaxMiB} MiB (${(rss.lastThirdGrowth * 100).toFixed(1)} %): ${rss.levelled ? 'levelled off' : 'still growing'}.`,
    '',
    '| minute | RSS (peak of the minute) | | requests so far | deliveries so far | pending deliveries |',
    '|---|---|---|---|---|---|',
    ...[...byMinute.entries()].map(
      ([minute, sample]) =>
        `| ${[minute, `${sample.rssMiB} MiB`, '█'.repeat(Math.max(1, Math.round((sample.rssMiB / top) * 30))), count(sample.requests), count(sample.delivered), count(sample.pending ?? undefined)].map(cell).join(' | ')} |`,
    ),
  ].join('\n');
}

/**
 * The generated text of one block.
 *
 * @param {{ command: string, date: string, environment: string, rows: object[], load?: object }} results
 * @param {string} name
 * @returns {string}
 */
export function renderFigures(results, name) {
  if (name === 'load') return loadTable(results);
  if (name === 'scaling') return scalingTable(results);
  if (name === 'bundle') return bundleTable(results);
  if (name === 'latency') return latencyTable(results);
  if (name === 'keystroke') return keystrokeSummary(results);
  if (name === 'datasize') return datasizeTable(results);
  if (name === 'disk') return diskTable(results);
  if (name === 'soak') return soakTable(results);
  if (name === 'all' || Object.hasOwn(SECTIONS, name)) return rowsTable(results, name);
  throw new Error(
    `unknown figures block "${name}": use ${['all', 'load', 'scaling', 'bundle', 'latency', 'keystroke', 'datasize', 'disk', 'soak', ...Object.keys(SECTIONS)].join(', ')}`,
  );
}

/**
 * `text` with every figures block rewritten from `results`. Throws for a block
 * that is opened and not closed, or whose name is unknown.
 *
 * @param {string} text
 * @param {object} results
 * @returns {string}
 */
export function updateDocument(text, results) {
  const opened = [...text.matchAll(OPEN)].length;
  const closed = [...text.matchAll(MARKER)].length;
  if (opened !== closed) throw new Error(`${opened - closed} figures block(s) opened and not closed with <!-- /figures:NAME -->`);
  return text.replace(MARKER, (_, name) => `<!-- figures:${name} -->\n${renderFigures(results, name)}\n<!-- /figures:${name} -->`);
}

const root = fileURLToPath(new URL('../', import.meta.url));

/** The docs files and bench/results.json of this repository. */
export function readSources() {
  const results = JSON.parse(readFileSync(join(root, 'bench/results.json'), 'utf8'));
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => ({ path: join(root, 'docs', name), name: `docs/${name}` }));
  return { results, docs: [{ path: join(root, 'README.md'), name: 'README.md' }, ...docs] };
}

/**
 * Rewrites (or, with `check`, only lists) the docs files whose tables differ
 * from bench/results.json; `npm run bench` and `npm run load` call it after
 * writing the file. Returns the files concerned.
 *
 * @param {{ check?: boolean }} [options]
 * @returns {string[]}
 */
export function writeFigures({ check = false } = {}) {
  const { results, docs } = readSources();
  const stale = [];
  for (const doc of docs) {
    const text = readFileSync(doc.path, 'utf8');
    const updated = updateDocument(text, results);
    if (updated === text) continue;
    stale.push(doc.name);
    if (!check) writeFileSync(doc.path, updated);
  }
  return stale;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const check = process.argv.includes('--check');
  const stale = writeFigures({ check });
  if (check && stale.length > 0) {
    console.error(`Figures differ from bench/results.json in ${stale.join(', ')}: run node scripts/docs-figures.js`);
    process.exit(1);
  }
  console.log(stale.length === 0 ? 'docs figures: up to date' : `docs figures: rewrote ${stale.join(', ')}`);
}
