import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseJsonText } from '../../src/json-text.js';
import { validatePass } from '../../src/pass/validate.js';

// pass.json files labelled with what Wallet does with them (and the source of
// that fact): passmint's verdict must agree — an error exactly where Wallet
// refuses. The text is read as `passmint lint` reads it, so JSON-level
// verdicts (a trailing comma, a missing comma) count too.

interface Entry {
  readonly file: string;
  readonly wallet: 'opens' | 'refuses';
  readonly source: string;
}

const folder = new URL('../fixtures/wallet-verdicts/', import.meta.url);
const { passes } = JSON.parse(readFileSync(new URL('manifest.json', folder), 'utf8')) as { passes: readonly Entry[] };

function verdict(file: string): { errors: string[]; warnings: string[] } {
  const parsed = parseJsonText(readFileSync(new URL(file, folder), 'utf8'));
  const issues = [...parsed.issues, ...('value' in parsed ? validatePass(parsed.value).issues : [])];
  const line = (issue: (typeof issues)[number]): string => `${issue.code} ${issue.path}`;
  return { errors: issues.filter((issue) => issue.severity === 'error').map(line), warnings: issues.filter((issue) => issue.severity === 'warning').map(line) };
}

describe("passmint's verdicts match Wallet's", () => {
  test('the manifest names every fixture, each with a verdict and a source', () => {
    const names = passes.map((entry) => entry.file).sort();
    expect(names.length).toBeGreaterThanOrEqual(12);
    for (const entry of passes) {
      expect(['opens', 'refuses']).toContain(entry.wallet);
      expect(entry.source.length).toBeGreaterThan(20);
    }
    expect(new Set(names).size).toBe(names.length);
  });

  test.each(passes.map((entry) => [entry.file, entry] as const))('%s', (_file, entry) => {
    const { errors } = verdict(entry.file);
    if (entry.wallet === 'opens') expect(errors).toEqual([]);
    else expect(errors.length).toBeGreaterThan(0);
  });

  test("the iOS 27 and poster passes built from Apple's published shapes have no unknown key and the expected warnings only", () => {
    expect(verdict('poster-generic.json')).toEqual({ errors: [], warnings: [] });
    expect(verdict('poster-event-ticket.json')).toEqual({ errors: [], warnings: [] });
    expect(verdict('poster-generic-alone.json').warnings).toEqual(['missing-fallback-style /posterGeneric']);
    expect(verdict('poster-event-missing-tags.json').warnings).toEqual([
      'style-scheme-fallback /semantics/venueRegionName',
      'style-scheme-fallback /semantics/venueRoom',
      'style-scheme-fallback /semantics/performerNames',
    ]);
  });

  test('the verdict decisions are located warnings', () => {
    expect(verdict('trailing-comma.json').warnings).toEqual([
      'trailing-comma /boardingPass/primaryFields/1',
      'trailing-comma /boardingPass/auxiliaryFields',
      'trailing-comma /boardingPass',
    ]);
    expect(verdict('token-without-web-service.json').warnings).toEqual(['unpaired-web-service /webServiceURL']);
    expect(verdict('missing-comma.json').errors).toEqual(['invalid-json ']);
  });
});
