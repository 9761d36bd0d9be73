// "Did this happen a moment ago?" for keys such as pass + client, in bounded
// memory, per process: what keeps a repeated download from adding an event each time.

/**
 * Remembers keys for `windowMs`.
 *
 * @example
 * ```ts
 * const recent: RepeatWindow = createRepeatWindow({ windowMs: 600_000 });
 * recent.repeated('pass.com.example/E5982H|203.0.113.7'); // false: first time
 * recent.repeated('pass.com.example/E5982H|203.0.113.7'); // true, for ten minutes
 * ```
 */
export interface RepeatWindow {
  /** `true` when the key was seen less than `windowMs` ago; otherwise records it now and answers `false`. */
  repeated(key: string, now?: number): boolean;
}

/**
 * Makes a window. At most `maxKeys` keys are kept (default 100,000); past
 * that the oldest is forgotten (its next occurrence counts as new).
 * A `windowMs` of 0 remembers nothing.
 *
 * @example
 * ```ts
 * const recent = createRepeatWindow({ windowMs: 10 * 60_000, maxKeys: 50_000 });
 * ```
 */
export function createRepeatWindow(options: { readonly windowMs: number; readonly maxKeys?: number | undefined }): RepeatWindow {
  const { windowMs } = options;
  const maxKeys = Math.max(1, options.maxKeys ?? 100_000);
  // Insertion order is time order: a key is re-inserted when recorded again.
  const seenAt = new Map<string, number>();
  return {
    repeated(key, now = Date.now()) {
      if (windowMs <= 0) return false;
      const at = seenAt.get(key);
      if (at !== undefined && now - at < windowMs) return true;
      seenAt.delete(key);
      // Expired keys sit at the front: drop them, then the oldest if still full.
      for (const [first, time] of seenAt) {
        if (now - time < windowMs && seenAt.size < maxKeys) break;
        seenAt.delete(first);
      }
      seenAt.set(key, now);
      return false;
    },
  };
}
