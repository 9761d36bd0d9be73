// `npm run bench`: issue 6's measurements, each against a baseline measured in
// the same run, printed as one table and written to bench/results.json.
// See bench/README.md for what each row means.

import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { handlebarsRenderer, limit, naiveRender } from './baselines.js';
import { bundleCore, importSize, librarySizes } from './lib/bundle.js';
import { measure, median, pairedRatio, timeSlow } from './lib/measure.js';
import { mergeRows, storedRow } from './lib/sections.js';

const started = performance.now();
// `node bench/run.js scan sizes` runs only those sections (render, scaling, scan, hostile, webhooks, wallet, pkpass, server, service, scale, import, publish, sizes).
// With --write, their rows replace the same sections' rows in bench/results.json (a full run rewrites it whole).
const only = process.argv.slice(2).filter((arg) => arg !== '--write');
const writeSections = process.argv.includes('--write');
const want = (section) => only.length === 0 || only.includes(section);
// The reference workload of the project's shared bench notes, copied here so a clone has it.
const fixture = (name) => JSON.parse(readFileSync(fileURLToPath(new URL(`./${name}`, import.meta.url)), 'utf8'));
const template = fixture('reference-template.json');
const values = fixture('reference-values.json');
const issuer = {
  teamIdentifier: 'A93A5CM278',
  organizationName: 'Example Events',
  webServiceURL: 'https://passes.example.com/',
};

// A service that keeps its own serial numbers and tokens: no random UUIDs to make.
const issuedIds = {
  ...issuer,
  serialNumber: '2f7bd3bd-0a4c-4b1e-9f0c-6d0b8a6f3e51',
  authenticationToken: 'c2a0e6a4-4f0e-4d3b-8b3e-3a7c1c9e2d10',
};

const lib = await import(await bundleCore());
const { compileTemplate, buildPass, scanPlaceholders } = lib;

/** @type {{ name: string, ours: string, baseline: string, ratio: number, ratioText: string, target: string, pass: boolean | null, unit?: string, oursValue: number, baselineValue: number }[]} */
const rows = [];

const time = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** ours / baseline must be at most `max`. */
function atMost(name, ours, baseline, ratio, max, format = time) {
  rows.push({
    name,
    ours: format(ours),
    baseline: format(baseline),
    oursValue: ours,
    baselineValue: baseline,
    ratio,
    ratioText: `${ratio.toFixed(2)}×`,
    target: max === undefined ? '—' : `≤ ${max}×`,
    pass: max === undefined ? null : ratio <= max,
  });
}

/** baseline / ours (how many times faster) must be at least `min`. */
function fasterBy(name, ours, baseline, speedup, min) {
  rows.push({
    name,
    ours: time(ours),
    baseline: time(baseline),
    oursValue: ours,
    baselineValue: baseline,
    ratio: speedup,
    ratioText: `${speedup.toFixed(1)}× faster`,
    target: min === undefined ? '—' : `≥ ${min}× faster`,
    pass: min === undefined ? null : speedup >= min,
  });
}

// --- The reference workload --------------------------------------------------
const generated = compileTemplate(template);
const noEval = compileTemplate(template, { codegen: false });
const handlebars = handlebarsRenderer(template.description);
const body = template.description;

// The baselines and both paths must agree before their speed means anything.
const expected = JSON.stringify(limit(values));
for (const [name, render] of [
  ['generated', () => generated.render(values)],
  ['no-eval', () => noEval.render(values)],
  ['handlebars', () => handlebars(values)],
  ['naive', () => naiveRender(body, values)],
]) {
  if (JSON.stringify(render()) !== expected) throw new Error(`${name} renders something else than the hand-written literal`);
}

function renderRows() {
  const render = measure(
    [
      { name: 'limit', fn: () => limit(values) },
      { name: 'generated', fn: () => generated.render(values) },
      { name: 'no-eval', fn: () => noEval.render(values) },
      { name: 'handlebars', fn: () => handlebars(values) },
      { name: 'naive', fn: () => naiveRender(body, values) },
      { name: 'buildPass', fn: () => buildPass(generated, values, issuer) },
      { name: 'buildPass given ids', fn: () => buildPass(generated, values, issuedIds) },
    ],
    { rounds: 31, batchMs: 10, warmupMs: 300 },
  );
  const t = (name) => render.get(name);
  atMost('render, generated code vs limit (hand-written literal)', t('generated').median, t('limit').median, pairedRatio(t('generated'), t('limit')), 1.5);
  atMost('render, no-eval interpreter vs limit', t('no-eval').median, t('limit').median, pairedRatio(t('no-eval'), t('limit')), 12);
  fasterBy('render, generated code vs Handlebars + JSON.parse', t('generated').median, t('handlebars').median, pairedRatio(t('handlebars'), t('generated')), 8);
  fasterBy(
    'render, no-eval interpreter vs Handlebars + JSON.parse',
    t('no-eval').median,
    t('handlebars').median,
    pairedRatio(t('handlebars'), t('no-eval')),
    8,
  );
  fasterBy(
    'buildPass + validatePass vs Handlebars render alone',
    t('buildPass').median,
    t('handlebars').median,
    pairedRatio(t('handlebars'), t('buildPass')),
    3,
  );
  fasterBy(
    'buildPass + validatePass, serial and token given, vs Handlebars (info)',
    t('buildPass given ids').median,
    t('handlebars').median,
    pairedRatio(t('handlebars'), t('buildPass given ids')),
    undefined,
  );
  fasterBy('render, generated code vs naive regex walk (info)', t('generated').median, t('naive').median, pairedRatio(t('naive'), t('generated')), undefined);
}
if (want('render')) renderRows();

// --- Scaling: 10× the fields costs at most 12× the time ----------------------
/**
 * A generic pass with `count` back fields, each with a label and a value that
 * holds one of 100 placeholders. The values object stays the same size at
 * every width, so the rows measure the cost of fields; a values object of
 * thousands of keys is slower per key in V8 (dictionary mode), a constant step
 * the "no-eval, distinct names" row shows apart.
 */
function wideTemplate(count, names = 100) {
  const backFields = [];
  const placeholder = new Set();
  for (let index = 0; index < count; index++) {
    const name = `p${index % names}`;
    backFields.push({ key: `f${index}`, label: `Label ${index}`, value: `Value \${${name}}` });
    placeholder.add(name);
  }
  return {
    id: count,
    name: `${count} fields`,
    formatVersion: 1,
    passType: 'pass.com.example.wide',
    description: { generic: { primaryFields: [{ key: 'title', value: 'Wide' }], backFields } },
    placeholder: [...placeholder],
  };
}
function scalingRows() {
  const sizes = [100, 1000, 10000];
  const wide = sizes.map((count) => {
    const source = wideTemplate(count);
    const input = Object.fromEntries(source.placeholder.map((name, index) => [name, `v${index}`]));
    return { count, source, input, generated: compileTemplate(source), noEval: compileTemplate(source, { codegen: false }) };
  });
  for (const entry of wide) {
    if (JSON.stringify(entry.generated.render(entry.input)) !== JSON.stringify(entry.noEval.render(entry.input))) {
      throw new Error(`the two paths disagree on ${entry.count} fields`);
    }
  }
  // Compile includes the first render: a generated function is compiled by the engine on its first call.
  const compileTimes = wide.map((entry) =>
    timeSlow(() => compileTemplate(entry.source).render(entry.input), { repeat: 5, minMs: entry.count >= 10000 ? 200 : 40 }),
  );
  const renderTimes = measure(
    wide.flatMap((entry) => [
      { name: `generated ${entry.count}`, fn: () => entry.generated.render(entry.input) },
      { name: `no-eval ${entry.count}`, fn: () => entry.noEval.render(entry.input) },
    ]),
    // A server renders one template thousands of times: measure the steady state,
    // after the optimizing compiler has had time for the larger generated functions.
    { rounds: 9, batchMs: 20, warmupMs: 1500 },
  );
  for (let step = 1; step < sizes.length; step++) {
    const [small, large] = [sizes[step - 1], sizes[step]];
    const label = `${small.toLocaleString('en')} → ${large.toLocaleString('en')} fields`;
    const [a, b] = [compileTimes[step - 1], compileTimes[step]];
    atMost(`scaling: compile + first render, ${label}`, b.median, a.median, b.median / a.median, 12);
    for (const path of ['generated', 'no-eval']) {
      const [x, y] = [renderTimes.get(`${path} ${small}`), renderTimes.get(`${path} ${large}`)];
      atMost(`scaling: render ${path === 'generated' ? 'generated code' : 'no-eval'}, ${label}`, y.median, x.median, pairedRatio(y, x), 12);
    }
  }
}
if (want('scaling')) scalingRows();

// --- Scanning adversarial text: linear ---------------------------------------
function scanRows() {
  const KB = 1024;
  const adversarial = {
    '"${" repeated': (length) => '${'.repeat(length / 2),
    '"$" repeated': (length) => '$'.repeat(length),
    '"}" repeated': (length) => '}'.repeat(length),
    '"${a}" repeated': (length) => '${a}'.repeat(length / 4),
    'mixed "${x${ } $${" ': (length) => '${x${ } $${'.repeat(length / 11),
    // Every broken placeholder with a name of its own: nothing to share between issues.
    'distinct broken names "${ n0}${ n1}…"': (length) => {
      let text = '';
      for (let index = 0; text.length < length; index++) text += `\${ n${index.toString(36)}}`;
      return text.slice(0, length);
    },
  };
  for (const [name, make] of Object.entries(adversarial)) {
    const small = make(100 * KB);
    const large = make(1000 * KB);
    const [smallOutput, largeOutput] = [outputOf(small), outputOf(large)];
    // Text dense with placeholders yields up to 256,000 segment and issue objects
    // per MB, and V8 makes keeping that many objects superlinear by itself: a loop
    // that only allocates the same objects and strings (the floor) costs 10–35×
    // as much for 10× of them, at these sizes (young-generation copying,
    // fresh pages, caches). The target row divides that out: the scan's growth
    // over its floor's growth, times 10 — what 10× the text would cost if keeping
    // 10× the results cost 10×. A scan with superlinear work of its own shows
    // there as it does in the raw ratio; V8's step in keeping results does not.
    const count = largeOutput.segments.length + largeOutput.issues.length;
    if (count < 1000) {
      const a = timeSlow(() => scanPlaceholders(small), { repeat: 7, minMs: 15 });
      const b = timeSlow(() => scanPlaceholders(large), { repeat: 7, minMs: 60 });
      atMost(`scan ${name}: 100 KB → 1 MB`, b.median, a.median, b.median / a.median, 12);
      continue;
    }
    // Rounds of the four, each ratio taken inside its round (paired), median over rounds.
    const samples = { a: [], b: [], floorA: [], floorB: [] };
    for (let round = 0; round < 7; round++) {
      samples.a.push(timeSlow(() => scanPlaceholders(small), { repeat: 1, minMs: 15 }).median);
      samples.floorA.push(timeSlow(() => allocate(small, smallOutput), { repeat: 1, minMs: 15 }).median);
      samples.b.push(timeSlow(() => scanPlaceholders(large), { repeat: 1, minMs: 60 }).median);
      samples.floorB.push(timeSlow(() => allocate(large, largeOutput), { repeat: 1, minMs: 60 }).median);
    }
    const paired = (f) => median(samples.a.map((_, round) => f(samples.a[round], samples.b[round], samples.floorA[round], samples.floorB[round])));
    const floorGrowth = paired((_a, _b, floorA, floorB) => floorB / floorA);
    atMost(
      `scan ${name}: 100 KB → 1 MB, over keeping its ${count.toLocaleString('en')} results (those alone: ${floorGrowth.toFixed(1)}×)`,
      paired((_a, b, _floorA, floorB) => b / floorB),
      paired((a, _b, floorA) => a / floorA),
      paired((a, b, floorA, floorB) => (b / a / (floorB / floorA)) * 10),
      12,
      (x) => `${x.toFixed(2)}× floor`,
    );
    atMost(
      `scan ${name}: 100 KB → 1 MB (info)`,
      median(samples.b),
      median(samples.a),
      paired((a, b) => b / a),
      undefined,
    );
  }
}
/** Where each string of a scan's output lies in the text: what {@link allocate} rebuilds. */
function outputOf(text) {
  const { segments, issues } = scanPlaceholders(text);
  return {
    segments: segments.map((segment) =>
      segment.type === 'text' ? [segment.offset, segment.offset + segment.value.length] : [segment.offset + 2, segment.offset + 2 + segment.name.length],
    ),
    issues: issues.map((issue) => [issue.offset + 2, issue.offset + 2 + (issue.placeholder?.length ?? 0)]),
  };
}

/** The allocation floor of a scan's output: the same objects and string slices, kept in two arrays. */
function allocate(text, { segments, issues }) {
  const out = [];
  for (const [start, end] of segments) out.push({ type: 'placeholder', name: text.slice(start, end), offset: start });
  const problems = [];
  for (const [start, end] of issues) {
    problems.push({ severity: 'error', code: 'invalid-placeholder', message: 'm', path: '', placeholder: text.slice(start, end), offset: start });
  }
  return { out, problems };
}
if (want('scan')) scanRows();

// --- Hostile input: linear time (issue 11) -------------------------------------
if (want('hostile')) {
  const { benchHostile } = await import('./hostile.js');
  for (const row of benchHostile(lib)) atMost(row.name, row.ours, row.baseline, row.ratio, 12);
}

// --- Webhooks ----------------------------------------------------------------
if (want('webhooks'))
  try {
    const { benchWebhooks } = await import('./webhooks.js');
    for (const row of await benchWebhooks()) atMost(row.name, row.ours, row.baseline, row.ratio, row.max);
  } catch (error) {
    rows.push({
      name: `webhooks: not measured (${error.message})`,
      ours: '—',
      baseline: '—',
      ratio: NaN,
      ratioText: '—',
      target: '≤ 1.5×',
      pass: false,
      oursValue: NaN,
      baselineValue: NaN,
    });
  }

// --- Wallet web service and pushes (issue 12) ----------------------------------
if (want('wallet'))
  try {
    const { benchWallet } = await import('./wallet.js');
    const rate = (ns) => `${Math.round(1e9 / ns).toLocaleString('en')}/s`;
    for (const row of await benchWallet()) {
      // Pushes: within 1.5× of bare node:http2; the handler rows say what Apple's protocol costs over answering at all (info).
      const isPush = row.name.startsWith('apns:');
      atMost(row.name + (isPush ? '' : ' (info)'), row.ours, row.baseline, row.ratio, isPush ? 1.5 : undefined, rate);
    }
  } catch (error) {
    rows.push({
      name: `wallet: not measured (${error.message})`,
      ours: '—',
      baseline: '—',
      ratio: NaN,
      ratioText: '—',
      target: '≤ 1.5×',
      pass: false,
      oursValue: NaN,
      baselineValue: NaN,
    });
  }

// --- Pass packages (issue 10) --------------------------------------------------
if (want('pkpass'))
  try {
    const { benchPkpass } = await import('./pkpass.js');
    const { speed, sizes } = await benchPkpass();
    for (const row of speed) fasterBy(row.name, row.ours, row.baseline, row.speedup, row.min);
    for (const row of sizes) atMost(row.name, row.ours, row.baseline, row.ratio, undefined, kb);
  } catch (error) {
    rows.push({
      name: `pkpass: not measured (${error.message})`,
      ours: '—',
      baseline: '—',
      ratio: NaN,
      ratioText: '—',
      target: '≥ 0.9× faster',
      pass: false,
      oursValue: NaN,
      baselineValue: NaN,
    });
  }

// --- The service (issue 14): needs PostgreSQL (PASSMINT_BENCH_POSTGRES) ------------
if (want('server'))
  try {
    const { benchServer } = await import('./server.js');
    const rate = (ns) => `${Math.round(1e9 / ns).toLocaleString('en')}/s`;
    for (const row of await benchServer()) {
      if (row.kind === 'faster') {
        const speedup = 1 / row.ratio;
        rows.push({
          name: row.name,
          ours: rate(row.ours),
          baseline: rate(row.baseline),
          oursValue: row.ours,
          baselineValue: row.baseline,
          ratio: speedup,
          ratioText: `${speedup.toFixed(1)}× faster`,
          target: '≥ 1.5× faster',
          pass: speedup >= 1.5,
        });
      } else {
        atMost(`${row.name} (info)`, row.ours, row.baseline, row.ratio, undefined, rate);
      }
    }
  } catch (error) {
    rows.push({
      name: `server: not measured (${error.message})`,
      ours: '—',
      baseline: '—',
      ratio: NaN,
      ratioText: '—',
      target: '≥ 1.5× faster',
      pass: false,
      oursValue: NaN,
      baselineValue: NaN,
    });
  }

// --- The service under load (issue 20): `npm run load`'s rows, PostgreSQL needed --------
let loadFigures;
if (want('service'))
  try {
    const load = await import('./load.js');
    const loadStarted = performance.now();
    const measured = await load.benchService({ seconds: 2, rounds: 3 });
    rows.push(...load.serviceRows(measured));
    loadFigures = load.loadFigures(measured, (performance.now() - loadStarted) / 1000, 'npm run bench (service section)');
  } catch (error) {
    rows.push({
      name: `service: not measured (${error.message})`,
      ours: '—',
      baseline: '—',
      ratio: NaN,
      ratioText: '—',
      target: '≥ 0.7×',
      pass: false,
      oursValue: NaN,
      baselineValue: NaN,
    });
  }

// --- Cost flat with the data (issue 28): `node bench/scale.js`'s rows, PostgreSQL needed --------
let scaleFigures;
if (want('scale'))
  try {
    const scale = await import('./scale.js');
    const measured = await scale.benchScale();
    rows.push(...scale.scaleRows(measured));
    scaleFigures = scale.scaleFigures(measured, 'npm run bench (scale section)');
  } catch (error) {
    rows.push({
      name: `scale: not measured (${error.message})`,
      ours: '—',
      baseline: '—',
      ratio: NaN,
      ratioText: '—',
      target: '≤ 1.5×',
      pass: false,
      oursValue: NaN,
      baselineValue: NaN,
    });
  }

// --- The console: the stats query at 1,000,000 events vs 10,000, and its initial JavaScript (bench/console.js) ----
if (want('console')) {
  const { benchConsole } = await import('./console.js');
  rows.push(...(await benchConsole()));
}

// --- Bulk imports: `node bench/import.js`'s rows, PostgreSQL needed --------
let importFigures;
if (want('import'))
  try {
    const { benchImport, importRows } = await import('./import.js');
    const measured = await benchImport();
    rows.push(...importRows(measured));
    importFigures = { command: 'npm run bench (import section)', date: new Date().toISOString(), settings: measured.settings };
  } catch (error) {
    rows.push({
      name: `import: not measured (${error.message})`,
      ours: '—',
      baseline: '—',
      ratio: NaN,
      ratioText: '—',
      target: '≥ 0.5×',
      pass: false,
      oursValue: NaN,
      baselineValue: NaN,
    });
  }

// --- Publishing a template change: `node bench/publish.js`'s rows, PostgreSQL needed --------
if (want('publish'))
  try {
    const { benchPublish, publishRows } = await import('./publish.js');
    rows.push(...publishRows(await benchPublish()));
  } catch (error) {
    rows.push({
      name: `publish: not measured (${error.message})`,
      ours: '—',
      baseline: '—',
      ratio: NaN,
      ratioText: '—',
      target: '≥ 0.5×',
      pass: false,
      oursValue: NaN,
      baselineValue: NaN,
    });
  }

// --- Sizes ---------------------------------------------------------------------
// What a bundler ships for what a user imports: each import bundled alone
// (tree-shaken, minified, gzipped). Budgets are the figures of the day they
// were set, rounded up: a FAIL means the import grew since. Reset on
// 2026-11-26 for the iOS 27 and poster rules, Apple's full semantic tag list
// (validatePass 11.2 → 14.0 KB) and, in packPass, personalization.json's
// checks, the poster image layouts and the repack-fidelity check (19.3 → 25.4 KB).
const IMPORT_BUDGETS = [
  ['scanPlaceholders', 'passmint', 'src/index.ts', 0.75],
  ['verifySignature', 'passmint/webhooks', 'src/webhooks/index.ts', 1.1],
  ['validatePass', 'passmint', 'src/index.ts', 14.5],
  ['buildPass', 'passmint', 'src/index.ts', 23.5],
  ['packPass', 'passmint/pkpass', 'src/pkpass/index.ts', 26],
];
async function sizeRows() {
  for (const [name, from, entry, budgetKb] of IMPORT_BUDGETS) {
    const bytes = await importSize(entry, name);
    const budget = budgetKb * 1024;
    const label = `size: import { ${name} } from '${from}' alone, min+gzip`;
    if (bytes === undefined) {
      // packPass arrives with issue 10's pkpass module: until then, nothing to measure.
      rows.push({
        name: `${label} (not in the tree yet)`,
        ours: '—',
        baseline: `${kb(budget)} budget`,
        ratio: NaN,
        ratioText: '—',
        target: '≤ 1×',
        pass: null,
        oursValue: NaN,
        baselineValue: budget,
      });
      continue;
    }
    atMost(label, bytes, budget, bytes / budget, 1, kb);
    rows.at(-1).baseline = `${rows.at(-1).baseline} budget`;
  }
  const { whole, entries } = await librarySizes();
  // Every entry that runs in every runtime; the budget is the figure of the day
  // pkpass and wallet joined (66.1 KB, 2026-11-23), rounded up.
  const WHOLE_BUDGET = 76 * 1024;
  atMost(`size: whole library (${entries.join(' + ')}, validators included), min+gzip`, whole, WHOLE_BUDGET, whole / WHOLE_BUDGET, 1, kb);
  rows.at(-1).baseline = `${rows.at(-1).baseline} budget`;
}
if (want('sizes')) await sizeRows();

// --- Report ----------------------------------------------------------------------
const seconds = (performance.now() - started) / 1000;
const header = ['measurement', 'ours', 'baseline', 'ratio', 'target', 'result'];
const cells = rows.map((row) => [row.name, row.ours, row.baseline, row.ratioText, row.target, row.pass === null ? 'info' : row.pass ? 'PASS' : 'FAIL']);
const widths = header.map((title, column) => Math.max(title.length, ...cells.map((cell) => cell[column].length)));
const line = (cell) => `| ${cell.map((text, column) => text.padEnd(widths[column])).join(' | ')} |`;
const environment = `Node ${process.version}, V8 ${process.versions.v8}, ${process.platform}/${process.arch}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}`;
console.log(`passmint bench — ${environment}`);
console.log(`(ratios are medians of same-round ratios; times are medians; ${seconds.toFixed(0)} s)\n`);
console.log(line(header));
console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
for (const cell of cells) console.log(line(cell));
const failed = rows.filter((row) => row.pass === false);
console.log(`\n${rows.filter((row) => row.pass === true).length} PASS, ${failed.length} FAIL, ${rows.filter((row) => row.pass === null).length} info`);

const resultsPath = fileURLToPath(new URL('./results.json', import.meta.url));
const stored = rows.map(storedRow);
if (only.length === 0) {
  // The playground's figures (`npm run figures:playground`), the scaling run (`node bench/load.js --scale`) and the
  // soak (`node bench/soak.js`) are not measured here: kept as they were.
  let playground;
  let scaling;
  let soak;
  try {
    ({ playground, scaling, soak } = JSON.parse(readFileSync(resultsPath, 'utf8')));
  } catch {}
  writeFileSync(
    resultsPath,
    `${JSON.stringify({ command: 'npm run bench', date: new Date().toISOString(), environment, seconds: Number(seconds.toFixed(1)), rows: stored, ...(loadFigures === undefined ? {} : { load: loadFigures }), ...(playground === undefined ? {} : { playground }), ...(scaling === undefined ? {} : { scaling }), ...(scaleFigures === undefined ? {} : { scale: scaleFigures }), ...(importFigures === undefined ? {} : { import: { ...importFigures, environment } }), ...(soak === undefined ? {} : { soak }) }, null, 2)}\n`,
  );
} else if (writeSections) {
  const previous = JSON.parse(readFileSync(resultsPath, 'utf8'));
  const merged = {
    ...previous,
    rows: mergeRows(previous.rows, stored, only),
    ...(loadFigures === undefined ? {} : { load: loadFigures }),
    ...(scaleFigures === undefined ? {} : { scale: scaleFigures }),
    ...(importFigures === undefined ? {} : { import: { ...importFigures, environment } }),
  };
  writeFileSync(resultsPath, `${JSON.stringify(merged, null, 2)}\n`);
  console.log(`\nbench/results.json: the rows of ${only.join(', ')} replaced (run ${new Date().toISOString()}).`);
}
if (only.length === 0 || writeSections) {
  const { writeFigures } = await import('../scripts/docs-figures.js');
  const rewritten = writeFigures();
  if (rewritten.length > 0) console.log(`Figures regenerated in ${rewritten.join(', ')}.`);
}
