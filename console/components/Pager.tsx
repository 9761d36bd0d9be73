import type { JSX } from 'preact';

/** Previous and next page buttons over a stack of cursors (the API's `after=` cursors). */
export function Pager({
  cursors,
  next,
  onPage,
}: {
  cursors: readonly string[];
  next: string | null;
  onPage: (cursors: readonly string[]) => void;
}): JSX.Element | null {
  if (cursors.length === 0 && next === null) return null;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={cursors.length === 0} onClick={() => onPage(cursors.slice(0, -1))}>
        Previous page
      </button>
      <span class="note">Page {cursors.length + 1}</span>
      <button type="button" disabled={next === null} onClick={() => next !== null && onPage([...cursors, next])} data-testid="next-page">
        Next page
      </button>
    </nav>
  );
}
