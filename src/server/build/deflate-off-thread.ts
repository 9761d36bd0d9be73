// Deflate in a worker thread (fflate's asynchronous API starts one per call):
// for the large files of a template, so compressing them never holds up the
// event loop. Small data is cheaper to deflate in place than to hand over.
import { deflate, deflateSync } from 'fflate';

/** Below this many bytes data is deflated in place: a worker costs more than the work. */
export const IN_PLACE_BYTES: number = 256 * 1024;

/**
 * `data` deflated at `level` (raw DEFLATE, as a zip entry holds it).
 *
 * @example
 * ```ts
 * const compressed = await deflateOffThread(bytes, 6);
 * ```
 */
export function deflateOffThread(data: Uint8Array, level: 6): Promise<Uint8Array> {
  if (data.byteLength < IN_PLACE_BYTES) return Promise.resolve(deflateSync(data, { level }));
  return new Promise((resolve, reject) => {
    // `consume` stays off: the worker gets a copy, the caller's bytes stay usable.
    deflate(data, { level }, (error, result) => (error === null ? resolve(result) : reject(error)));
  });
}
