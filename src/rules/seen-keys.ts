/**
 * The field keys of one style body, with where each was first seen (the list
 * and index, under the style body at stack depth `depth`). One per context,
 * reset for each style body.
 */
export interface SeenKeys {
  depth: number;
  readonly keys: string[];
  readonly lists: string[];
  readonly indexes: number[];
  index: Map<string, number> | undefined;
}

// A linear scan beats a Map for the few fields a pass has; many fields get one.
const LINEAR_LIMIT = 24;

/** Empties `seen` for the style body at stack depth `depth`. */
export function resetSeenKeys(seen: SeenKeys, depth: number): SeenKeys {
  seen.depth = depth;
  // Setting a length is a slow runtime call; most passes have one style body.
  if (seen.keys.length > 0) {
    seen.keys.length = 0;
    seen.lists.length = 0;
    seen.indexes.length = 0;
    seen.index = undefined;
  }
  return seen;
}

/** Where `key` was first seen (an index into `seen.keys`), or -1. */
export function findKey(seen: SeenKeys, key: string): number {
  if (seen.index !== undefined) return seen.index.get(key) ?? -1;
  return seen.keys.indexOf(key);
}

/** Records `key`, first seen in `list` at `index`. */
export function addKey(seen: SeenKeys, key: string, list: string, index: number): void {
  seen.keys.push(key);
  seen.lists.push(list);
  seen.indexes.push(index);
  if (seen.index !== undefined) seen.index.set(key, seen.keys.length - 1);
  else if (seen.keys.length > LINEAR_LIMIT) seen.index = new Map(seen.keys.map((each, position) => [each, position]));
}
