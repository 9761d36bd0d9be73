import type { GoogleLoss, GoogleLossCode } from './types.js';

/** A loss, located. */
export function loss(code: GoogleLossCode, path: string, message: string): GoogleLoss {
  return { severity: 'warning', code, path, message };
}
