/** Options of {@link closestName}. */
export interface ClosestNameOptions {
  /** Most edits a likely typo has; default a third of the name's length, at least 1; never more than {@link MAX_EDITS}. */
  readonly limit?: number;
  /** Compare without case (default: a change of case costs ½ an edit). */
  readonly ignoreCase?: boolean;
}

/**
 * The most edits a suggestion may be away. Past a few edits a name is not a
 * typo of another; and the cap keeps each comparison linear in the names'
 * length (only a band of the edit table as wide as the cap is computed), so
 * long hostile names cost no more than their length.
 */
export const MAX_EDITS = 4;

/**
 * The candidate closest to `name` by edit distance, when it is close enough to
 * be a likely typo — the "did you mean" of `undeclared-placeholder` and `unknown-key`.
 * Costs O((|name| + |candidate|) × limit) per candidate.
 *
 * @example
 * ```ts
 * closestName('levle', ['level', 'gym']); // 'level'
 * ```
 */
export function closestName(name: string, candidates: Iterable<string>, options: ClosestNameOptions = {}): string | undefined {
  const limit = Math.min(MAX_EDITS, options.limit ?? Math.max(1, Math.floor(name.length / 3)));
  const ignoreCase = options.ignoreCase === true;
  const wanted = ignoreCase ? name.toLowerCase() : name;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    // Each insertion or deletion costs 1: a length this far off cannot win.
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
// Returns `cap` when the distance is `cap` or more. A cell (i, j) with
// |i − j| ≥ cap costs at least `cap` (that many insertions or deletions), so
// only the band |i − j| < cap is computed: linear in the length for a small cap.
// The three rows are kept between calls (a pass with 100,000 unknown keys asks
// for a million distances); only the band and the cells beside it are written
// and read, so what earlier calls left elsewhere in them is never seen.
let rows: [Float64Array, Float64Array, Float64Array] = [new Float64Array(64), new Float64Array(64), new Float64Array(64)];

function editDistance(a: string, b: string, cap: number): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) >= cap) return cap;
  const width = Math.ceil(cap) - 1;
  const far = cap + 1;
  if (rows[0].length < m + 2) rows = [new Float64Array(m + 2), new Float64Array(m + 2), new Float64Array(m + 2)];
  let [before, previous, current] = rows;
  for (let j = 0; j <= Math.min(m, width); j++) previous[j] = j;
  if (width + 1 <= m) previous[width + 1] = far;
  for (let i = 1; i <= n; i++) {
    const low = Math.max(1, i - width);
    const high = Math.min(m, i + width);
    // The cell left of the band: the first column, or out of reach.
    current[low - 1] = low === 1 ? i : far;
    let rowMin = current[low - 1] as number;
    const x = a.charCodeAt(i - 1);
    for (let j = low; j <= high; j++) {
      const y = b.charCodeAt(j - 1);
      const change = x === y ? 0 : sameLetter(x, y) ? 0.5 : 1;
      let value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + change);
      if (i > 1 && j > 1 && x === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === y) value = Math.min(value, (before[j - 2] as number) + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    // The cell right of the band, which the next row reads from above.
    if (high + 1 <= m) current[high + 1] = far;
    if (rowMin >= cap) return cap;
    const spare = before;
    before = previous;
    previous = current;
    current = spare;
  }
  return Math.min(previous[m] as number, cap);
}

/** Whether two different UTF-16 units are one letter in two cases. */
function sameLetter(x: number, y: number): boolean {
  if (x < 0x80 && y < 0x80) return (x | 0x20) === (y | 0x20) && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7a;
  return String.fromCharCode(x).toLowerCase() === String.fromCharCode(y).toLowerCase();
}
