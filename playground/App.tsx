import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { GooglePanel } from './components/GooglePanel.js';
import { IssuerForm } from './components/IssuerForm.js';
import { LocalizationsPanel } from './components/LocalizationsPanel.js';
import { IssuesList } from './components/IssuesList.js';
import { PassJson } from './components/PassJson.js';
import { ImagesPanel } from './components/ImagesPanel.js';
import { Editor, Inspector, WebhookTool } from './components/lazy.js';
import { PackagePanel } from './components/PackagePanel.js';
import { PassPreview } from './components/PassPreview.js';
import { PreviewSheet, ShowPassButton } from './components/PreviewSheet.js';
import { ValuesForm } from './components/ValuesForm.js';
import { examples } from './examples/index.js';
import { shareUrl } from './lib/url-sync.js';
import { exampleId, linkProblem, loadExample, pickerValue, setTheme, theme } from './state.js';

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

function edited(id: string): string {
  const example = examples.find((candidate) => candidate.id === id);
  return example === undefined ? '(your template)' : `${example.title} — edited`;
}

function LinkProblem(): JSX.Element | null {
  const problem = linkProblem.value;
  if (problem === '') return null;
  return (
    <div class="link-problem" role="alert" data-testid="link-problem">
      <p>{problem}</p>
      <button type="button" onClick={() => (linkProblem.value = '')}>
        Dismiss
      </button>
    </div>
  );
}

// In-page moves by script, not by #anchor: the address's hash holds the shared state.
function goTo(id: string): void {
  const target = document.getElementById(id);
  target?.scrollIntoView({ block: 'start' });
  target?.focus({ preventScroll: true });
}

const SECTIONS: readonly [string, string][] = [
  ['editor-heading', 'Template'],
  ['values-heading', 'Values'],
  ['images-heading', 'Images'],
  ['preview-heading', 'Preview'],
  ['issues-heading', 'Issues'],
  ['package-heading', 'Download'],
];

function PhoneNav(): JSX.Element {
  const nav = useRef<HTMLElement>(null);
  // The bar's height (one line, or two on the narrowest phones) keeps what is scrolled or focused into view from sliding under it.
  useEffect(() => {
    const element = nav.current;
    if (element === null || typeof ResizeObserver !== 'function') return undefined;
    const observer = new ResizeObserver(() => document.documentElement.style.setProperty('--phone-nav-height', `${element.offsetHeight}px`));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <nav class="phone-nav" aria-label="Sections" data-testid="phone-nav" ref={nav}>
      {SECTIONS.map(([id, name]) => (
        <button key={id} type="button" onClick={() => goTo(id)}>
          {name}
        </button>
      ))}
      <ShowPassButton />
    </nav>
  );
}

// Keys that move a closed <select>'s choice (and fire its change event) in Chromium.
const BROWSING_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

/**
 * The example picker. A choice made with the mouse (or a phone's wheel) loads at once;
 * one reached with the arrow keys only moves the selection, and Enter or the Load
 * button loads it, so browsing the list never replaces the template.
 */
function ExamplePicker(): JSX.Element {
  const [pending, setPending] = useState<string | undefined>(undefined);
  // A ref, not state: the change event comes within the keydown, before any re-render.
  const browsing = useRef(false);
  const shown = pending ?? pickerValue.value;
  const load = (id: string): void => {
    setPending(undefined);
    loadExample(id);
  };
  const title = examples.find((example) => example.id === pending)?.title;
  return (
    <>
      <label class="picker">
        Example
        <select
          value={shown}
          onKeyDown={(event) => {
            if (BROWSING_KEYS.has(event.key) || (event.key.length === 1 && event.key !== ' ')) browsing.current = true;
            else if (event.key === 'Enter' && pending !== undefined) {
              event.preventDefault();
              load(pending);
            }
          }}
          onKeyUp={() => (browsing.current = false)}
          onBlur={() => (browsing.current = false)}
          onChange={(event) => {
            const id = event.currentTarget.value;
            if (browsing.current) setPending(id === pickerValue.peek() ? undefined : id);
            else load(id);
          }}
          data-testid="example-picker"
        >
          {pickerValue.value === '' ? <option value="">{edited(exampleId.value)}</option> : null}
          {examples.map((example) => (
            <option key={example.id} value={example.id}>
              {example.title}
            </option>
          ))}
        </select>
      </label>
      {pending === undefined || title === undefined ? null : (
        <button type="button" onClick={() => load(pending)} data-testid="load-example">
          Load {title}
          <span class="visually-hidden"> (replaces the template)</span>
        </button>
      )}
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
      <ExamplePicker />
      <ShareButton />
      {/* One name, its state in aria-pressed: "Dark theme, pressed" while the dark theme is on. */}
      <button type="button" aria-pressed={dark} onClick={() => setTheme(dark ? 'light' : 'dark')} data-testid="theme-toggle">
        Dark theme
      </button>
    </header>
  );
}

/** The playground: template and inputs on the left, what they make on the right. */
export function App(): JSX.Element {
  return (
    <>
      <a
        class="skip"
        href="#preview-heading"
        onClick={(event) => {
          event.preventDefault();
          goTo('preview-heading');
        }}
      >
        Skip to the preview
      </a>
      <Toolbar />
      <LinkProblem />
      <PhoneNav />
      <main class="layout">
        <section aria-labelledby="editor-heading" class="panel editor-panel">
          <h2 id="editor-heading" tabIndex={-1}>
            Template
          </h2>
          <p class="hint">
            JSON; <code>{'${name}'}</code> marks a placeholder. In the editor, press Escape then Tab to move on.
          </p>
          <Editor />
        </section>
        <section aria-labelledby="values-heading" class="panel lazy-paint">
          <h2 id="values-heading" tabIndex={-1}>
            Values
          </h2>
          <ValuesForm />
        </section>
        <section aria-labelledby="images-heading" class="panel">
          <h2 id="images-heading" tabIndex={-1}>
            Images
          </h2>
          <ImagesPanel />
        </section>
        <section aria-labelledby="localizations-heading" class="panel">
          <h2 id="localizations-heading">Localizations</h2>
          <LocalizationsPanel />
        </section>
        <section aria-labelledby="issuer-heading" class="panel lazy-paint">
          <h2 id="issuer-heading">Issuer</h2>
          <IssuerForm />
        </section>
        {/* Beside the editor and sticky on a wide screen: the pass stays in view while typing anywhere on the left. */}
        <div class="pass-dock" data-testid="pass-dock">
          <section aria-labelledby="preview-heading" class="panel">
            <h2 id="preview-heading" tabIndex={-1}>
              Preview
            </h2>
            <PassPreview />
          </section>
          <section aria-labelledby="issues-heading" class="panel">
            <h2 id="issues-heading" tabIndex={-1}>
              Issues
            </h2>
            <IssuesList />
          </section>
        </div>
        <section aria-labelledby="package-heading" class="panel">
          <h2 id="package-heading" tabIndex={-1}>
            Download .pkpass
          </h2>
          <PackagePanel />
        </section>
        <section aria-labelledby="google-heading" class="panel lazy-paint">
          <h2 id="google-heading">Add to Google Wallet</h2>
          <GooglePanel />
        </section>
        <section aria-labelledby="inspector-heading" class="panel">
          <h2 id="inspector-heading">Inspect a .pkpass</h2>
          <Inspector />
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
      </main>
      <PreviewSheet />
    </>
  );
}
