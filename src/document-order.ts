import type { Issue } from './issues.js';

/**
 * Sorts issues by where their paths point in `root`, the way a person reads
 * the JSON: members in key order, array elements by index, a parent before its
 * children, and a missing member after its parent's existing ones. Stable:
 * issues at one place keep their order.
 */
export function sortByDocumentOrder(issues: Issue[], root: unknown): Issue[] {
  if (issues.length < 2) return issues;
  const keysOf = new Map<object, string[]>();
  const positions = issues.map((issue) => position(issue.path, root, keysOf));
  const order = issues.map((_, index) => index);
  order.sort((a, b) => compare(positions[a] as number[], positions[b] as number[]));
  return order.map((index) => issues[index] as Issue);
}

function position(path: string, root: unknown, keysOf: Map<object, string[]>): number[] {
  const result: number[] = [];
  if (path === '') return result;
  let current: unknown = root;
  for (const raw of path.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null) {
      result.push(Number.MAX_SAFE_INTEGER);
      break;
    }
    if (Array.isArray(current)) {
      const index = /^(?:0|[1-9]\d*)$/.test(token) ? Number(token) : -1;
      result.push(index >= 0 && index < current.length ? index : current.length);
      current = index >= 0 ? current[index] : undefined;
      continue;
    }
    let keys = keysOf.get(current);
    if (keys === undefined) {
      keys = Object.keys(current);
      keysOf.set(current, keys);
    }
    const index = keys.indexOf(token);
    result.push(index === -1 ? keys.length : index);
    current = index === -1 ? undefined : (current as { readonly [key: string]: unknown })[token];
  }
  return result;
}

function compare(a: readonly number[], b: readonly number[]): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const difference = (a[index] as number) - (b[index] as number);
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}
