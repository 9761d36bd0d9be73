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
  if (target?.kind === 'input') {
    const input = document.getElementById(target.id);
    if (input !== null) {
      input.scrollIntoView({ block: 'center' });
      input.focus();
      return true;
    }
  }
  // Every issue has a place: one with none of its own (a file for a slot this style hides,
  // a check of the whole pass) goes to the template's first line.
  const [anchor, head] = target?.kind === 'editor' ? [target.anchor, target.head] : [0, 0];
  if (current !== undefined) {
    current.select(anchor, head);
    return true;
  }
  const editor = document.getElementById('editor-heading');
  editor?.scrollIntoView({ block: 'start' });
  editor?.focus();
  return editor !== null;
}
