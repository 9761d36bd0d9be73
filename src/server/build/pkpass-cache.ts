// The signed .pkpass of each pass version, made once: Wallet fetches the same
// version from every device that holds the pass, and a download link may be
// opened many times.
import { createByteCache } from './byte-cache.js';

/**
 * Signed packages by pass and version.
 *
 * @example
 * ```ts
 * const cache: PkpassCache = createPkpassCache(64 * 1024 * 1024);
 * const bytes = await cache.get('pass.com.example/E5982H', '3:7:1', () => packPass(pass, files, signer));
 * ```
 */
export interface PkpassCache {
  /**
   * The package of this `version` of the pass: from memory, from a signing
   * already under way for it, or made now by `make` (and kept). A failure is
   * not kept.
   */
  get(key: string, version: string, make: () => Promise<Uint8Array>): Promise<Uint8Array>;
  /** Bytes held. */
  readonly bytes: number;
}

/**
 * Makes a cache of at most `maxBytes` (least recently used first out; 0
 * keeps nothing, but concurrent requests for one version still share one signing).
 *
 * @example
 * ```ts
 * const cache = createPkpassCache(0); // sign every time
 * ```
 */
export function createPkpassCache(maxBytes: number): PkpassCache {
  const cache = createByteCache<Uint8Array>({ maxBytes });
  const pending = new Map<string, Promise<Uint8Array>>();
  return {
    get(key, version, make) {
      const found = cache.get(key, version);
      if (found !== undefined) return Promise.resolve(found);
      const id = `${key}\u0000${version}`;
      const running = pending.get(id);
      if (running !== undefined) return running;
      const made = make().then(
        (bytes) => {
          pending.delete(id);
          cache.set(key, version, bytes, bytes.byteLength);
          return bytes;
        },
        (error: unknown) => {
          pending.delete(id);
          throw error;
        },
      );
      pending.set(id, made);
      return made;
    },
    get bytes() {
      return cache.bytes;
    },
  };
}

const signerIds = new WeakMap<object, number>();
let nextSignerId = 1;

/** A number naming a signer object for cache versions (a new signer, new packages). */
export function signerId(signer: object): number {
  let id = signerIds.get(signer);
  if (id === undefined) {
    id = nextSignerId++;
    signerIds.set(signer, id);
  }
  return id;
}
