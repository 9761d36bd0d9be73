/** Options of {@link closestName}. */
export interface ClosestNameOptions {
  /** Most edits a likely typo has; default a third of the name's length, at least 1. */
  readonly limit?: number;
  /** Compare without case (default: a change of case costs ½ an edit). */
  readonly ignoreCase?: boolean;
}

/**
 * The candidate closest to `name` by edit distance, when it is close enough to
 * be a likely typo — the "did you mean" of `undeclared-placeholder` and `unknown-key`.
 *
 * @example
 * ```ts
 * closestName('levle', ['level', 'gym']); // 'level'
 * ```
 */
export function closestName(name: string, candidates: Iterable<string>, options: ClosestNameOptions = {}): string | undefined {
  const limit = options.limit ?? Math.max(1, Math.floor(name.length / 3));
  const ignoreCase = options.ignoreCase === true;
  const wanted = ignoreCase ? name.toLowerCase() : name;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - name.length) >= bestDistance) continue;
    const distance = editDistance(wanted, ignoreCase ? candidate.toLowerCase() : candidate, bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

// Optimal string alignment distance: insertions, deletions, substitutions and
// swaps of neighbours (`levle` → `level`) cost 1, a change of case only ½ (`Name` → `name`).
// Gives up with `cap` once every alignment already costs that much.
function editDistance(a: string, b: string, cap: number): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const x = a[i - 1] as string;
      const y = b[j - 1] as string;
      const change = x === y ? 0 : x.toLowerCase() === y.toLowerCase() ? 0.5 : 1;
      let value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + change);
      if (i > 1 && j > 1 && x === b[j - 2] && a[i - 2] === y) value = Math.min(value, (before[j - 2] as number) + 1);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin >= cap) return cap;
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}
