import type { GoogleCallbackResult, VerifyGoogleCallbackOptions } from './types.js';

/**
 * Verifies a save or delete callback (ECv2SigningOnly); never throws.
 *
 * @example
 * ```ts
 * const result = await verifyGoogleCallback(await request.text(), { issuerId, rootKeys });
 * if (result.ok) console.log(result.message.eventType, result.message.objectId);
 * ```
 */
export async function verifyGoogleCallback(body: string | object, options: VerifyGoogleCallbackOptions): Promise<GoogleCallbackResult> {
  void body;
  void options;
  throw new Error('not yet');
}
