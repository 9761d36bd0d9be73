import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { IssuerForm } from './components/IssuerForm.js';
import { IssuesList } from './components/IssuesList.js';
import { PassJson } from './components/PassJson.js';
import { Editor, WebhookTool } from './components/lazy.js';
import { PassPreview } from './components/PassPreview.js';
import { ValuesForm } from './components/ValuesForm.js';
import { examples } from './examples/index.js';
import { shareUrl } from './lib/url-sync.js';
import { exampleId, loadExample, setTheme, theme } from './state.js';

function ShareButton(): JSX.Element {
  const [note, setNote] = useState('');
  const share = async (): Promise<void> => {
    const url = await shareUrl();
    history.replaceState(null, '', url);
    try {
      await navigator.clipboard.writeText(url);
      setNote('Link copied.');
    } catch {
      setNote('Link is in the address bar.');
    }
  };
  return (
    <>
      <button type="button" onClick={() => void share()} data-testid="share">
        Share link
      </button>
      <span class="note" role="status">
        {note}
      </span>
    </>
  );
}

function Toolbar(): JSX.Element {
  const dark = theme.value === 'dark';
  return (
    <header class="app-header">
      <h1>
        passmint <span>playground</span>
      </h1>
      <label class="picker">
        Example
        <select value={exampleId.value} onChange={(event) => loadExample(event.currentTarget.value)} data-testid="example-picker">
          {exampleId.value === '' ? <option value="">(your template)</option> : null}
          {examples.map((example) => (
            <option key={example.id} value={example.id}>
              {example.title}
            </option>
          ))}
        </select>
      </label>
      <ShareButton />
      <button type="button" aria-pressed={dark} onClick={() => setTheme(dark ? 'light' : 'dark')} data-testid="theme-toggle">
        {dark ? 'Light theme' : 'Dark theme'}
      </button>
    </header>
  );
}

/** The playground: template and inputs on the left, what they make on the right. */
export function App(): JSX.Element {
  return (
    <>
      <a class="skip" href="#preview-heading">
        Skip to the preview
      </a>
      <Toolbar />
      <main class="layout">
        <div class="column">
          <section aria-labelledby="editor-heading" class="panel editor-panel">
            <h2 id="editor-heading">Template</h2>
            <p class="hint">JSON; <code>{'${name}'}</code> marks a placeholder. In the editor, press Escape then Tab to move on.</p>
            <Editor />
          </section>
          <section aria-labelledby="values-heading" class="panel lazy-paint">
            <h2 id="values-heading">Values</h2>
            <ValuesForm />
          </section>
          <section aria-labelledby="issuer-heading" class="panel lazy-paint">
            <h2 id="issuer-heading">Issuer</h2>
            <IssuerForm />
          </section>
        </div>
        <div class="column">
          <section aria-labelledby="preview-heading" class="panel">
            <h2 id="preview-heading" tabIndex={-1}>
              Preview
            </h2>
            <PassPreview />
          </section>
          <section aria-labelledby="issues-heading" class="panel">
            <h2 id="issues-heading">Issues</h2>
            <IssuesList />
          </section>
          <section aria-labelledby="json-heading" class="panel lazy-paint">
            <h2 id="json-heading">pass.json</h2>
            <PassJson />
          </section>
          <section aria-labelledby="webhook-heading" class="panel lazy-paint">
            <details onToggle={(event) => event.currentTarget.open && void WebhookTool.preload()}>
              <summary>
                <h2 id="webhook-heading">Webhook signature</h2>
              </summary>
              <WebhookTool />
            </details>
          </section>
        </div>
      </main>
    </>
  );
}
