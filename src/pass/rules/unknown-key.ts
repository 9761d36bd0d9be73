import { type Context, quote, report } from './context.js';

/**
 * Warns about a key Wallet does not know (Apple adds keys every year, so it is
 * kept), suggesting the closest known key, since most are typos.
 */
export function reportUnknownKey(context: Context, key: string, known: readonly string[], where: string): void {
  const suggestion = closest(key, known);
  const hint = suggestion === undefined ? '' : ` — did you mean ${quote(suggestion)}?`;
  report(context, 'warning', 'unknown-key', key, `${quote(key)} is not a key Wallet knows in ${where}; it is kept but ignored${hint}`);
}

function closest(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.min(3, Math.floor(key.length / 3) + 1);
  for (const candidate of known) {
    if (candidate.toLowerCase() === lower) return candidate;
    const distance = editDistance(lower, candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

// Edit distance counting a swap of neighbours as one edit (the commonest typo),
// giving up (returning `limit`) once it cannot be below `limit`.
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (before[j - 2] ?? 0) + 1);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin >= limit) return limit;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length] ?? limit, limit);
}
