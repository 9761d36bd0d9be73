import { closestName } from '../suggest.js';
import { type Context, quote, report } from './context.js';

/**
 * Warns about a key Wallet does not know (Apple adds keys every year, so it is
 * kept), suggesting the closest known key, since most are typos.
 */
export function reportUnknownKey(context: Context, key: string, known: readonly string[], where: string): void {
  // Keys are compared without case; short keys get a suggestion only for a case slip.
  const suggestion = closestName(key, known, { limit: Math.min(2, Math.floor(key.length / 3)), ignoreCase: true });
  const hint = suggestion === undefined ? '' : ` — did you mean ${quote(suggestion)}?`;
  report(context, 'warning', 'unknown-key', key, `${quote(key)} is not a key Wallet knows in ${where}; it is kept but ignored${hint}`);
}
