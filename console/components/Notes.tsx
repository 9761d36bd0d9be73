import type { JSX } from 'preact';
import { ApiError } from '../lib/api.js';

/** What went wrong, in words: a problem's detail and issues, or that this service lacks the feature. */
export function ErrorNote({ error, what }: { error: unknown; what?: string }): JSX.Element | null {
  if (error === undefined) return null;
  if (error instanceof ApiError && error.missing) {
    return (
      <p class="notice" role="status" data-testid="not-available">
        {what ?? 'This'} is not available on this service yet (it answered {error.status}). Update passmint to use it.
      </p>
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div class="error-note" role="alert">
      <p>
        {error instanceof ApiError && error.code !== '' ? <code>{error.code}</code> : null} {message}
      </p>
      {error instanceof ApiError && error.issues.length > 0 ? (
        <ul>
          {error.issues.map((issue, index) => (
            <li key={index}>
              {issue.path === undefined || issue.path === '' ? null : <code>{issue.path}</code>} {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A line for the loading state (announced politely). */
export function Loading({ what = 'Loading' }: { what?: string }): JSX.Element {
  return (
    <p class="note" role="status">
      {what}…
    </p>
  );
}

/** A date-time from the service in the reader's locale; the ISO text as its machine-readable value. */
export function When({ at }: { at: string | null | undefined }): JSX.Element {
  if (at === null || at === undefined) return <span class="note">—</span>;
  const date = new Date(at);
  return <time dateTime={at}>{Number.isNaN(date.getTime()) ? at : date.toLocaleString()}</time>;
}

/** A wide table in a box that scrolls sideways on a phone, reachable by keyboard (a focusable, named region). */
export function TableScroll({ label, children }: { label: string; children: JSX.Element }): JSX.Element {
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
