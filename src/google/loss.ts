import type { GoogleLoss, GoogleLossCode } from './types.js';

/** A loss, located. */
export function loss(code: GoogleLossCode, path: string, message: string): GoogleLoss {
  return { severity: 'warning', code, path, message };
}

/** Appends `more` to `losses` one by one: a spread (`push(...more)`) overflows the stack past about 100,000 items. */
export function appendLosses(losses: GoogleLoss[], more: readonly GoogleLoss[]): void {
  for (const item of more) losses.push(item);
}
