import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, ensureSyntaxTree, foldGutter, foldKeymap, HighlightStyle, indentOnInput, syntaxHighlighting, syntaxTree } from '@codemirror/language';
import { type Diagnostic, lintGutter, lintKeymap, setDiagnostics } from '@codemirror/lint';
import { EditorSelection, EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, tooltips } from '@codemirror/view';
import { effect } from '@preact/signals';
import { tags } from '@lezer/highlight';
import { useEffect, useRef } from 'preact/hooks';
import type { JSX } from 'preact';
import { setEditorHandle } from '../lib/editor-bridge.js';
import { issueTarget } from '../lib/issue-target.js';
import { setText, shownIssues, text } from '../state.js';

// Colors come from CSS variables, so one highlight style serves both themes.
const highlight = HighlightStyle.define([
  { tag: tags.propertyName, color: 'var(--syntax-key)' },
  { tag: tags.string, color: 'var(--syntax-string)' },
  { tag: tags.number, color: 'var(--syntax-number)' },
  { tag: [tags.bool, tags.null], color: 'var(--syntax-keyword)' },
  { tag: [tags.brace, tags.squareBracket, tags.separator, tags.punctuation], color: 'var(--muted)' },
]);

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '13px', backgroundColor: 'var(--surface)', color: 'var(--text)' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5' },
  '.cm-gutters': { backgroundColor: 'var(--surface-2)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--active-line)' },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '-2px' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'var(--selection) !important' },
  '.cm-tooltip': { backgroundColor: 'var(--surface)', color: 'var(--text)', border: '1px solid var(--border)' },
});

/** The editor's syntax tree, parsed to the end of the document. */
function fullTree(view: EditorView): ReturnType<typeof syntaxTree> {
  return ensureSyntaxTree(view.state, view.state.doc.length, 200) ?? syntaxTree(view.state);
}

function diagnostics(view: EditorView): Diagnostic[] {
  const doc = view.state.doc.toString();
  if (doc !== text.peek()) return [];
  const tree = fullTree(view);
  const result: Diagnostic[] = [];
  for (const entry of shownIssues.peek()) {
    const target = issueTarget(entry, doc, tree);
    if (target === undefined || target.kind !== 'editor') continue;
    const from = Math.min(target.anchor, target.head);
    const to = Math.max(target.anchor, target.head);
    const where = entry.line === undefined ? '' : ` (line ${entry.line}, column ${entry.column})`;
    result.push({ from, to, severity: entry.severity, source: entry.code, message: `${entry.message}${where}` });
  }
  return result;
}

/** The template's JSON text in CodeMirror 6: highlighting, folding, undo, issues underlined. */
export function Editor(): JSX.Element {
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (host.current === null) return undefined;
    // The text the editor itself last gave the page: its echo needs no comparison with the document.
    let own = text.peek();
    const view = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: text.peek(),
        extensions: [
          lineNumbers(),
          // The editor's box contains its paint: tooltips (an issue under the pointer) live in the body, so none is cut at its edge.
          tooltips({ parent: document.body }),
          foldGutter(),
          lintGutter(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          json(),
          syntaxHighlighting(highlight),
          // Escape then Tab leaves the editor (CodeMirror's documented tab-trap escape).
          keymap.of([...defaultKeymap, ...historyKeymap, ...foldKeymap, ...lintKeymap, indentWithTab]),
          EditorView.contentAttributes.of({ 'aria-label': 'Template JSON', 'data-testid': 'editor', tabindex: '0' }),
          EditorView.lineWrapping,
          theme,
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return;
            own = update.state.doc.toString();
            setText(own);
          }),
        ],
      }),
    });
    setEditorHandle({
      tree: () => fullTree(view),
      select: (anchor, head) => {
        view.dispatch({
          selection: EditorSelection.single(anchor, head),
          effects: EditorView.scrollIntoView(anchor, { y: 'center' }),
        });
        view.focus();
        // The line must also be inside the window (on a phone the editor is often off screen),
        // below the sticky section bar: measured after CodeMirror has scrolled its own box.
        requestAnimationFrame(() => {
          const line = view.coordsAtPos(anchor);
          if (line === null) return;
          const top = (document.querySelector('.phone-nav')?.getBoundingClientRect().bottom ?? 0) + 8;
          if (line.top < top || line.bottom > innerHeight - 8) window.scrollBy({ top: line.top - (top + innerHeight) / 2 });
        });
      },
    });

    // Outside changes (an example, a shared link) replace the whole text.
    const stopSync = effect(() => {
      const next = text.value;
      if (next !== own && next !== view.state.doc.toString()) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next } });
    });

    // Underlines follow the issues, after the preview has been drawn (never inside an editor update).
    let pending = 0;
    let shown = 0;
    const stopLint = effect(() => {
      const count = shownIssues.value.length;
      clearTimeout(pending);
      // Nothing to add and nothing to clear: leave the editor alone (the common case while typing).
      if (count === 0 && shown === 0) return;
      pending = window.setTimeout(() => {
        const found = diagnostics(view);
        shown = found.length;
        view.dispatch(setDiagnostics(view.state, found));
      }, 30);
    });

    return () => {
      clearTimeout(pending);
      stopSync();
      stopLint();
      setEditorHandle(undefined);
      view.destroy();
    };
  }, []);

  return <div class="editor" ref={host} />;
}
