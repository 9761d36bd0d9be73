import { pointerOf } from '../issues.js';
import { loss } from './loss.js';
import type { GoogleLoss } from './types.js';

/**
 * Reads a pass's `semantics` for a mapping: each tag taken is marked used
 * only when its value has the shape the mapping needs, so a tag of the wrong
 * type is reported as dropped like any other tag Google has no place for.
 */
export interface SemanticReader {
  /** The own value of a tag (never an inherited one), or `undefined`. */
  readonly raw: (tag: string) => unknown;
  /** A string or number tag as text (marked used), or `undefined`. */
  readonly text: (tag: string) => string | undefined;
  /** Marks a tag used. */
  readonly use: (tag: string) => void;
  /** The tags used. */
  readonly used: ReadonlySet<string>;
  /** Extra losses the mapping found inside tags it used. */
  readonly losses: GoogleLoss[];
}

/** A reader over `semantics`; anything but a plain object reads as no tags. */
export function semanticReader(semantics: unknown): SemanticReader {
  const tags = semantics !== null && typeof semantics === 'object' && !Array.isArray(semantics) ? (semantics as Record<string, unknown>) : {};
  const used = new Set<string>();
  const raw = (tag: string): unknown => (Object.hasOwn(tags, tag) ? tags[tag] : undefined);
  return {
    raw,
    text: (tag) => {
      const value = raw(tag);
      if (typeof value !== 'string' && (typeof value !== 'number' || !Number.isFinite(value))) return undefined;
      used.add(tag);
      return String(value);
    },
    use: (tag) => used.add(tag),
    used,
    losses: [],
  };
}

/** A loss at `/semantics/<tag>/…`. */
export function semanticLoss(path: readonly (string | number)[], message: string): GoogleLoss {
  return loss('google-semantics-dropped', pointerOf('/semantics', path), message);
}
