import type { Tree } from '@lezer/common';
import { type IssueEntry, text } from '../state.js';
import { issueTarget } from './issue-target.js';
import { parseJsonTree } from './json-locate.js';

/** What the issues list needs from whichever editor is showing (CodeMirror, or the plain text area before it loads). */
export interface EditorHandle {
  /** The syntax tree of the current text. */
  tree(): Tree;
  /** Selects a range, scrolls it into view and focuses the editor. */
  select(anchor: number, head: number): void;
}

// The issues list calls `revealIssue`; the editor registers itself here. Keeping
// CodeMirror out of this module keeps it out of the initial JavaScript.
let current: EditorHandle | undefined;

/** Registers (or, with `undefined`, forgets) the editor. */
export function setEditorHandle(handle: EditorHandle | undefined): void {
  current = handle;
}

/**
 * Moves the cursor (or focus) to where an issue points and says whether it could.
 *
 * @example
 * ```tsx
 * <button onClick={() => revealIssue(entry)}>{entry.message}</button>
 * ```
 */
export function revealIssue(entry: IssueEntry): boolean {
  const source = text.peek();
  const target = issueTarget(entry, source, current?.tree() ?? parseJsonTree(source));
  if (target === undefined) return false;
  if (target.kind === 'input') {
    const input = document.getElementById(target.id);
    if (input === null) return false;
    input.scrollIntoView({ block: 'center' });
    input.focus();
    return true;
  }
  if (current === undefined) return false;
  current.select(target.anchor, target.head);
  return true;
}
