// Every figures table in docs/*.md is what scripts/docs-figures.js makes of
// bench/results.json: a table edited by hand, or results.json changed without
// regenerating the docs, fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { readSources, renderFigures, updateDocument, type BenchResults } from '../scripts/docs-figures.js';

const sample: BenchResults = {
  command: 'npm run bench',
  date: '2026-11-26T13:00:00.000Z',
  environment: 'Node v20, 2 × CPU',
  rows: [
    { name: 'pkpass: packPass vs a pipeline', ours: '400 µs', baseline: '380 µs', ratio: 0.95, target: '≥ 0.9× faster', result: 'PASS' },
    { name: 'service: create a pass vs bare: two INSERTs', ours: '350/s', baseline: '800/s', ratio: 0.4375, target: '≥ 0.7×', result: 'FAIL' },
    { name: 'webhooks: sign | verify', ours: '6 µs', baseline: '5 µs', ratio: null, target: '—', result: 'info' },
  ],
};

describe('docs figures', () => {
  test('every figures block in README.md and docs/*.md matches bench/results.json', () => {
    const { results, docs } = readSources();
    const blocks = docs.flatMap((doc) => {
      const text = readFileSync(doc.path, 'utf8');
      expect(updateDocument(text, results), `${doc.name}: run node scripts/docs-figures.js`).toBe(text);
      return [...text.matchAll(/<!-- figures:([a-z]+) -->/g)].map((match) => `${doc.name}:${match[1]}`);
    });
    expect(blocks).toContain('docs/performance.md:load');
    expect(blocks).toContain('README.md:keystroke');
  });

  test("a section block lists that section's rows only, ratios as the targets read them", () => {
    const table = renderFigures(sample, 'pkpass');
    expect(table.split('\n')).toEqual([
      '`npm run bench`, 2026-11-26: Node v20, 2 × CPU.',
      '',
      '| measurement | passmint | baseline | ratio | target | result |',
      '|---|---|---|---|---|---|',
      '| pkpass: packPass vs a pipeline | 400 µs | 380 µs | 0.95× faster | ≥ 0.9× faster | PASS |',
    ]);
    expect(renderFigures(sample, 'service')).toContain('| service: create a pass vs bare: two INSERTs | 350/s | 800/s | 0.44× | ≥ 0.7× | FAIL |');
    expect(renderFigures(sample, 'webhooks')).toContain('| webhooks: sign \\| verify | 6 µs | 5 µs | — | — | info |');
    expect(renderFigures(sample, 'scan')).toBe('_No `scan` rows in bench/results.json: run `node bench/run.js scan --write`._');
    expect(renderFigures(sample, 'load')).toBe('_No load run in bench/results.json yet: run `npm run load`._');
  });

  test('a stale table is rewritten, the text around it kept; broken markers are errors', () => {
    const text = 'Before.\n\n<!-- figures:service -->\n| old | table |\n<!-- /figures:service -->\n\nAfter.\n';
    const updated = updateDocument(text, sample);
    expect(updated).toBe(`Before.\n\n<!-- figures:service -->\n${renderFigures(sample, 'service')}\n<!-- /figures:service -->\n\nAfter.\n`);
    expect(updateDocument(updated, sample)).toBe(updated);
    expect(() => updateDocument('<!-- figures:pkpass -->\n| x |\n', sample)).toThrow('1 figures block(s) opened and not closed');
    expect(() => updateDocument('<!-- figures:nope -->\n<!-- /figures:nope -->', sample)).toThrow('unknown figures block "nope"');
  });
});
