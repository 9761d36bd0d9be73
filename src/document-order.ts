import type { Issue } from './issues.js';

/**
 * Sorts issues by where their paths point in `root`, the way a person reads
 * the JSON: members in key order, array elements by index, a parent before its
 * children, and a missing member after its parent's existing ones. Stable:
 * issues at one place keep their order, except that text problems inside
 * one string come in the order of their `offset`.
 *
 * Linear for the usual case, issues already (nearly) in order as the checks
 * find them: the sort is adaptive, and comparing two paths walks them side by
 * side from the root without building anything per issue; an object's keys
 * are indexed once, in a Map when it has many (a hostile pass with 100,000
 * unknown keys).
 */
export function sortByDocumentOrder(issues: Issue[], root: unknown): Issue[] {
  if (issues.length < 2) return issues;
  const order = new DocumentOrder(root);
  let sorted = true;
  for (let index = 1; index < issues.length && sorted; index++) sorted = order.compare(issues[index - 1] as Issue, issues[index] as Issue) <= 0;
  return sorted ? issues : issues.slice().sort((a, b) => order.compare(a, b));
}

/** An object's keys in order, and (for objects with many keys) each key's index. */
interface KeyIndex {
  readonly keys: readonly string[];
  index: Map<string, number> | undefined;
}

// Below this many keys a linear search is cheaper than building a Map.
const LINEAR_KEYS = 16;
const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

class DocumentOrder {
  private readonly keysOf = new Map<object, KeyIndex>();

  constructor(private readonly root: unknown) {}

  compare(a: Issue, b: Issue): number {
    return this.comparePaths(a.path, b.path) || (a.offset ?? -1) - (b.offset ?? -1);
  }

  /** Walks both pointers token by token from the root; the first tokens that differ decide. */
  private comparePaths(a: string, b: string): number {
    if (a === b) return 0;
    let current: unknown = this.root;
    let i = 0;
    let j = 0;
    for (;;) {
      // A pointer that ends first is the parent: it comes first.
      if (i >= a.length) return j >= b.length ? 0 : -1;
      if (j >= b.length) return 1;
      const endA = nextSlash(a, i + 1);
      const endB = nextSlash(b, j + 1);
      const tokenA = a.slice(i + 1, endA);
      const tokenB = b.slice(j + 1, endB);
      if (tokenA !== tokenB) return this.rank(current, decode(tokenA)) - this.rank(current, decode(tokenB));
      current = child(current, decode(tokenA));
      i = endA;
      j = endB;
    }
  }

  /** Where member `token` of `value` comes: its index, after every existing one when missing. */
  private rank(value: unknown, token: string): number {
    if (typeof value !== 'object' || value === null) return Number.MAX_SAFE_INTEGER;
    if (Array.isArray(value)) {
      const index = ARRAY_INDEX.test(token) ? Number(token) : -1;
      return index >= 0 && index < value.length ? index : value.length;
    }
    let entry = this.keysOf.get(value);
    if (entry === undefined) {
      entry = { keys: Object.keys(value), index: undefined };
      this.keysOf.set(value, entry);
    }
    let index: number;
    if (entry.keys.length <= LINEAR_KEYS) index = entry.keys.indexOf(token);
    else {
      entry.index ??= new Map(entry.keys.map((key, position) => [key, position]));
      index = entry.index.get(token) ?? -1;
    }
    return index === -1 ? entry.keys.length : index;
  }
}

function nextSlash(pointer: string, from: number): number {
  const at = pointer.indexOf('/', from);
  return at === -1 ? pointer.length : at;
}

function decode(token: string): string {
  return token.includes('~') ? token.replace(/~1/g, '/').replace(/~0/g, '~') : token;
}

function child(value: unknown, token: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) return ARRAY_INDEX.test(token) ? value[Number(token)] : undefined;
  return Object.hasOwn(value, token) ? (value as { readonly [key: string]: unknown })[token] : undefined;
}
