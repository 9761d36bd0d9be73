// A least-recently-used cache bounded by the bytes of what it holds.

/**
 * A cache entry's key is looked up together with a `version`: an entry of
 * another version is a miss (and is replaced by the next `set`), so a change
 * invalidates without a message to anyone.
 *
 * @example
 * ```ts
 * const cache: ByteCache<Uint8Array> = createByteCache({ maxBytes: 64 * 1024 * 1024 });
 * cache.set('pass.com.example/E5982H', '3:7', bytes, bytes.byteLength);
 * cache.get('pass.com.example/E5982H', '3:7'); // bytes
 * cache.get('pass.com.example/E5982H', '4:7'); // undefined
 * ```
 */
export interface ByteCache<TValue> {
  get(key: string, version: string): TValue | undefined;
  /** Keeps the value unless it alone is larger than the bound; drops the least recently used to make room. */
  set(key: string, version: string, value: TValue, bytes: number): void;
  /** The bytes held now (at most `maxBytes`). */
  readonly bytes: number;
  readonly size: number;
}

interface Entry<TValue> {
  readonly version: string;
  readonly value: TValue;
  readonly bytes: number;
}

/**
 * Makes a cache holding at most `maxBytes` (0: holds nothing).
 *
 * @example
 * ```ts
 * const cache = createByteCache<Uint8Array>({ maxBytes: 1024 });
 * ```
 */
export function createByteCache<TValue>(options: { readonly maxBytes: number }): ByteCache<TValue> {
  const { maxBytes } = options;
  // Insertion order is use order: a hit is re-inserted.
  const entries = new Map<string, Entry<TValue>>();
  let held = 0;
  const remove = (key: string): void => {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    held -= entry.bytes;
  };
  return {
    get(key, version) {
      const entry = entries.get(key);
      if (entry === undefined || entry.version !== version) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, version, value, bytes) {
      remove(key);
      if (bytes > maxBytes) return;
      while (held + bytes > maxBytes) remove(entries.keys().next().value!);
      entries.set(key, { version, value, bytes });
      held += bytes;
    },
    get bytes() {
      return held;
    },
    get size() {
      return entries.size;
    },
  };
}
