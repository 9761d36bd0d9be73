import type { Issue } from './issues.js';

/**
 * Sorts issues by where their paths point in `root`, the way a person reads
 * the JSON: members in key order, array elements by index, a parent before its
 * children, and a missing member after its parent's existing ones. Stable:
 * issues at one place keep their order, except that text problems inside
 * one string come in the order of their `offset`.
 */
export function sortByDocumentOrder(issues: Issue[], root: unknown): Issue[] {
  if (issues.length < 2) return issues;
  const keysOf = new Map<object, KeyIndex>();
  const positions = issues.map((issue) => position(issue.path, root, keysOf));
  const order = issues.map((_, index) => index);
  order.sort((a, b) => compare(positions[a] as number[], positions[b] as number[]) || offsetOf(issues[a] as Issue) - offsetOf(issues[b] as Issue));
  return order.map((index) => issues[index] as Issue);
}

// Inside one string, text problems in the order of their characters; the string's own issues first.
function offsetOf(issue: Issue): number {
  return issue.offset ?? -1;
}

/** An object's keys in order, and (for objects with many keys) each key's index. */
interface KeyIndex {
  readonly keys: readonly string[];
  index: Map<string, number> | undefined;
}

// Below this many keys a linear search is cheaper than building a Map.
const LINEAR_KEYS = 16;

function indexOfKey(entry: KeyIndex, key: string): number {
  if (entry.keys.length <= LINEAR_KEYS) return entry.keys.indexOf(key);
  // Many keys (a hostile pass has 100,000 unknown ones): one Map per object,
  // so locating every issue stays linear in the number of issues.
  entry.index ??= new Map(entry.keys.map((each, position) => [each, position]));
  return entry.index.get(key) ?? -1;
}

function position(path: string, root: unknown, keysOf: Map<object, KeyIndex>): number[] {
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
    let entry = keysOf.get(current);
    if (entry === undefined) {
      entry = { keys: Object.keys(current), index: undefined };
      keysOf.set(current, entry);
    }
    const index = indexOfKey(entry, token);
    result.push(index === -1 ? entry.keys.length : index);
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
