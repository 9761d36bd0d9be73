import type { RefObject } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { cutValues, type IssueEntry } from '../state.js';

/** A field whose label or value does not fit on the front. */
export interface CutValue {
  /** Its label (or key), as the note names it. */
  readonly name: string;
  /** JSON Pointer of the field in the pass. */
  readonly path: string;
}

const idle = (run: () => void): number => (typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 300 }) : window.setTimeout(run, 50));
const cancelIdle = (id: number): void => (typeof cancelIdleCallback === 'function' ? cancelIdleCallback(id) : clearTimeout(id));

/** The fields of a drawn front whose one line is wider than its box (Wallet ends them with "…"). */
function measure(card: HTMLElement): CutValue[] {
  const found: CutValue[] = [];
  for (const field of card.querySelectorAll<HTMLElement>('.field[data-path]')) {
    const parts = [...field.querySelectorAll<HTMLElement>('.field-label, .field-value')];
    if (!parts.some((part) => part.scrollWidth > part.clientWidth + 1)) continue;
    const name = field.querySelector('.field-label')?.textContent || field.dataset['key'] || '?';
    found.push({ name, path: field.dataset['path'] ?? '' });
  }
  return found;
}

/**
 * Measures, once the frame is painted and the page is idle (so typing never waits for
 * it), which values the front cuts; the main preview also lists them as issues.
 *
 * @example
 * ```tsx
 * const cut = useCutValues(ref, pass, side, true);
 * ```
 */
export function useCutValues(card: RefObject<HTMLElement | null>, pass: unknown, side: string, publish: boolean): readonly CutValue[] {
  const [cut, setCut] = useState<readonly CutValue[]>([]);
  useEffect(() => {
    if (side !== 'front') return undefined;
    const id = idle(() => {
      const element = card.current;
      if (element === null) return;
      const found = measure(element);
      setCut((old) => (old.map((entry) => entry.path).join() === found.map((entry) => entry.path).join() ? old : found));
      if (!publish) return;
      const entries: IssueEntry[] = found.map((entry) => ({
        id: `preview:cut:${entry.path}`,
        source: 'preview',
        severity: 'warning',
        code: 'value-cut',
        message: `"${entry.name}" does not fit on the front: Wallet cuts it with "…". Shorten it, or move it to the back.`,
        path: `${entry.path}/value`,
      }));
      if (
        entries.map((entry) => entry.id).join() !==
        cutValues
          .peek()
          .map((entry) => entry.id)
          .join()
      )
        cutValues.value = entries;
    });
    return () => cancelIdle(id);
  }, [pass, side]);
  return side === 'front' ? cut : [];
}
