import type { JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { setEditorHandle } from '../lib/editor-bridge.js';
import { parseJsonTree } from '../lib/json-locate.js';
import { setText, text } from '../state.js';

/** The template as a plain text area: what shows (and works) until CodeMirror has loaded. */
export function PlainEditor(): JSX.Element {
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    setEditorHandle({
      tree: () => parseJsonTree(text.peek()),
      select: (anchor, head) => {
        area.current?.focus();
        area.current?.setSelectionRange(Math.min(anchor, head), Math.max(anchor, head));
      },
    });
    return () => setEditorHandle(undefined);
  }, []);
  return (
    <div class="editor">
      <textarea
        ref={area}
        class="plain-editor"
        aria-label="Template JSON"
        spellcheck={false}
        value={text.value}
        onInput={(event) => setText(event.currentTarget.value)}
      />
    </div>
  );
}
