import { effect, signal } from '@preact/signals';
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { build } from '../state.js';

const textOf = (pass: unknown): string | undefined => (pass === undefined ? undefined : `${JSON.stringify(pass, null, 2)}\n`);

// The text follows when the page is idle: writing and laying out a long pass.json costs
// milliseconds, and the keystroke's own task and frame are for the preview.
const shownText = signal<string | undefined>(textOf(build.peek().pass));
const later: (run: () => void) => number =
  typeof requestIdleCallback === 'function' ? (run) => requestIdleCallback(run, { timeout: 250 }) : (run) => window.setTimeout(run, 50);
const cancel: (id: number) => void = typeof cancelIdleCallback === 'function' ? cancelIdleCallback : clearTimeout;
let pending = 0;
effect(() => {
  const { pass } = build.value;
  cancel(pending);
  pending = later(() => (shownText.value = textOf(pass)));
});

/** The rendered pass.json, to copy or download. */
export function PassJson(): JSX.Element {
  const [note, setNote] = useState('');
  const content = shownText.value;
  if (content === undefined) return <p class="empty">No pass.json while there are template or render errors.</p>;

  const copy = (): void => {
    navigator.clipboard.writeText(content).then(
      () => setNote('Copied.'),
      () => setNote('The browser refused the clipboard; select the text instead.'),
    );
  };
  const download = (): void => {
    const url = URL.createObjectURL(new Blob([content], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'pass.json';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <>
      <div class="toolbar">
        <button type="button" onClick={copy}>
          Copy pass.json
        </button>
        <button type="button" onClick={download}>
          Download pass.json
        </button>
        <span role="status">{note}</span>
      </div>
      <pre class="pass-json" data-testid="pass-json" tabIndex={0} aria-label="Rendered pass.json">
        {content}
      </pre>
    </>
  );
}
