import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { sortByDocumentOrder } from '../src/document-order.js';
import { type Issue, pointerToken } from '../src/issues.js';
import { RUNS } from './arbitraries.js';

// The definition, written the plain way (a position array per issue, then a
// stable sort): the reference the linear implementation is held to.
function position(path: string, root: unknown): number[] {
  const result: number[] = [];
  if (path === '') return result;
  let current: unknown = root;
  for (const raw of path.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null) {
      result.push(Number.MAX_SAFE_INTEGER);
      current = undefined;
      continue;
    }
    if (Array.isArray(current)) {
      const index = /^(?:0|[1-9]\d*)$/.test(token) ? Number(token) : -1;
      result.push(index >= 0 && index < current.length ? index : current.length);
      current = index >= 0 ? current[index] : undefined;
      continue;
    }
    const keys = Object.keys(current);
    const index = keys.indexOf(token);
    result.push(index === -1 ? keys.length : index);
    current = index === -1 ? undefined : (current as Record<string, unknown>)[token];
  }
  return result;
}

function reference(issues: readonly Issue[], root: unknown): Issue[] {
  const positions = issues.map((issue) => position(issue.path, root));
  const compare = (a: number[], b: number[]): number => {
    for (let index = 0; index < Math.min(a.length, b.length); index++) if (a[index] !== b[index]) return (a[index] as number) - (b[index] as number);
    return a.length - b.length;
  };
  return issues
    .map((issue, index) => index)
    .sort((a, b) => compare(positions[a] as number[], positions[b] as number[]) || ((issues[a] as Issue).offset ?? -1) - ((issues[b] as Issue).offset ?? -1))
    .map((index) => issues[index] as Issue);
}

/** Pointers into `root` (existing members, missing ones, and paths through scalars). */
function pathsOf(root: unknown, out: string[] = [], prefix = ''): string[] {
  out.push(prefix);
  out.push(`${prefix}/missing`);
  if (typeof root === 'object' && root !== null) {
    for (const [key, value] of Object.entries(root)) pathsOf(value, out, `${prefix}/${pointerToken(key)}`);
  }
  return out;
}

describe('sortByDocumentOrder', () => {
  test('agrees with the definition (position arrays and a stable sort) on any object and any issues', () => {
    const value = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<unknown>;
    fc.assert(
      fc.property(value, fc.array(fc.tuple(fc.nat(), fc.option(fc.nat({ max: 5 }), { nil: undefined })), { maxLength: 20 }), (root, picks) => {
        const paths = pathsOf(root);
        const issues: Issue[] = picks.map(([pick, offset], index) => ({
          severity: 'error',
          code: 'invalid-type',
          message: `#${index}`,
          path: paths[pick % paths.length] as string,
          ...(offset === undefined ? {} : { offset }),
        }));
        expect(sortByDocumentOrder(issues, root).map((issue) => issue.message)).toEqual(reference(issues, root).map((issue) => issue.message));
      }),
      { numRuns: RUNS * 3 },
    );
  });

  test('keys with / and ~ are decoded; a parent comes before its children; missing members last', () => {
    const root = { 'a/b': { x: 1 }, '~': 2, z: [0, 1] };
    const issue = (path: string): Issue => ({ severity: 'error', code: 'invalid-type', message: path, path });
    const issues = ['/z/5', '/~0', '/z/1', '/a~1b/x', '/nope', '/a~1b', ''].map(issue);
    expect(sortByDocumentOrder(issues, root).map((each) => each.path)).toEqual(['', '/a~1b', '/a~1b/x', '/~0', '/z/1', '/z/5', '/nope']);
  });
});
