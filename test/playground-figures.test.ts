// The playground's figures (build sizes, keystroke latency) reach the docs the
// same way as the bench's: stored under `playground` in bench/results.json,
// rendered into `<!-- figures:bundle -->` and `<!-- figures:latency -->` blocks.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { renderFigures, type BenchResults } from '../scripts/docs-figures.js';
import { withPlaygroundPart } from '../scripts/results-part.js';

const base: BenchResults = { command: 'npm run bench', date: '2026-11-26T13:00:00.000Z', environment: 'Node v20', rows: [] };

const bundle = {
  command: 'npm run build:playground',
  date: '2026-11-26T13:00:00.000Z',
  budgetKb: 150,
  initialGzip: 2048,
  chunks: [
    { name: 'index', initial: true, gzip: 2048, bytes: 6144 },
    { name: 'Editor', initial: false, gzip: 1536, bytes: 4096 },
  ],
};

const side = (median: number, p95: number): { median: number; p95: number } => ({ median, p95 });
const latency = {
  command: 'npm run figures:playground',
  date: '2026-11-26T13:00:00.000Z',
  environment: 'Node v20, 2 × CPU, headless Chromium 1 at 1280×900',
  loadAverage: { start: 1.04, end: 2.5 },
  keystrokes: 40,
  cases: [
    {
      template: '200 fields',
      target: { median: 12, p95: 16 },
      editor: { dom: side(4, 6), frame: side(8, 12), painted: side(11, 16) },
      value: { dom: side(2, 3), frame: side(7, 11), painted: side(9, 14) },
    },
    {
      template: '500 fields',
      target: { median: null, p95: 33 },
      editor: { dom: side(5, 9), painted: side(20, 40) },
      value: { dom: side(3, 4), painted: side(14, 30) },
    },
  ],
};

describe('playground figures', () => {
  test('bundle: the initial total against its budget, then every chunk', () => {
    expect(renderFigures(base, 'bundle')).toBe('_No playground build in bench/results.json yet: run `npm run figures:playground`._');
    expect(renderFigures({ ...base, playground: { bundle } }, 'bundle').split('\n')).toEqual([
      '`npm run build:playground`, 2026-11-26: initial JavaScript 2.0 KB gzipped of a 150 KB budget.',
      '',
      '| chunk | loaded | gzip -9 | raw |',
      '|---|---|---|---|',
      '| index | initial | 2.0 KB | 6.0 KB |',
      '| Editor | lazy | 1.5 KB | 4.0 KB |',
    ]);
  });

  test('latency: painted, DOM and next-frame medians / p95s (— for a run without frames), and whether both keystrokes meet the target', () => {
    expect(renderFigures(base, 'latency')).toBe('_No latency run in bench/results.json yet: run `npm run figures:playground`._');
    expect(renderFigures({ ...base, playground: { latency } }, 'latency').split('\n')).toEqual([
      '`npm run figures:playground`, 2026-11-26: Node v20, 2 × CPU, headless Chromium 1 at 1280×900; load average 1.0 at the start, 2.5 at the end; 40 keystrokes per cell, after 3 warm-ups.',
      '',
      '| template | editor: painted median / p95 | value: painted median / p95 | editor: DOM median / p95 | value: DOM median / p95 | editor: next frame median / p95 | value: next frame median / p95 | target (painted) | result |',
      '|---|---|---|---|---|---|---|---|---|',
      '| 200 fields | 11.0 / 16.0 ms | 9.0 / 14.0 ms | 4.0 / 6.0 ms | 2.0 / 3.0 ms | 8.0 / 12.0 ms | 7.0 / 11.0 ms | median ≤ 12, p95 ≤ 16 ms | met |',
      '| 500 fields | 20.0 / 40.0 ms | 14.0 / 30.0 ms | 5.0 / 9.0 ms | 3.0 / 4.0 ms | — | — | p95 ≤ 33 ms | not met |',
    ]);
  });

  test('writing one part keeps the rows, the load run and the other part', () => {
    const stored = { ...base, load: { routes: [] }, playground: { bundle } };
    const updated = withPlaygroundPart(stored, 'latency', latency);
    expect(updated).toEqual({ ...base, load: { routes: [] }, playground: { bundle, latency } });
    expect(withPlaygroundPart(updated, 'bundle', { chunks: [] }).playground).toEqual({ bundle: { chunks: [] }, latency });
  });

  test("keystroke: the README's brief table, painted figures against the targets", () => {
    expect(renderFigures(base, 'keystroke')).toBe('_No latency run in bench/results.json yet: run `npm run figures:playground`._');
    expect(renderFigures({ ...base, playground: { latency } }, 'keystroke').split('\n')).toEqual([
      'Keydown → painted frame, median / p95, `npm run figures:playground` on 2026-11-26 (Node v20, 2 × CPU, headless Chromium 1 at 1280×900):',
      '',
      '| template | typing in the editor | typing in a value | target | result |',
      '|---|---|---|---|---|',
      '| 200 fields | 11.0 / 16.0 ms | 9.0 / 14.0 ms | median ≤ 12, p95 ≤ 16 ms | met |',
      '| 500 fields | 20.0 / 40.0 ms | 14.0 / 30.0 ms | p95 ≤ 33 ms | not met |',
    ]);
  });

  test('docs/playground.md shows the sizes and the latency through figures blocks', () => {
    const text = readFileSync('docs/playground.md', 'utf8');
    expect(text).toContain('<!-- figures:bundle -->');
    expect(text).toContain('<!-- figures:latency -->');
  });
});
