import type { JSX } from 'preact';
import { revealIssue } from '../lib/editor-bridge.js';
import { type IssueEntry, type IssueSource, shownGoogleIssues, shownIssues } from '../state.js';

const SOURCE_NAMES: Readonly<Record<IssueSource, string>> = {
  json: 'JSON',
  template: 'validateTemplate',
  value: 'value',
  render: 'render',
  pass: 'validatePass',
  preview: 'preview',
  image: 'images',
  google: 'Google Wallet',
  strings: 'pass.strings',
  design: 'design check',
};

function IssueButton({ entry }: { entry: IssueEntry }): JSX.Element {
  return (
    <button
      type="button"
      class={`issue ${entry.severity}${entry.source === 'google' ? ' google' : ''}`}
      data-code={entry.code}
      data-severity={entry.severity}
      data-source={entry.source}
      onClick={() => revealIssue(entry)}
    >
      <span class="issue-severity">{entry.source === 'google' ? 'Google' : entry.severity}</span>
      <span class="issue-code">{entry.code}</span>
      <span class="issue-message">{entry.message}</span>
      <span class="issue-where">
        {SOURCE_NAMES[entry.source]}
        {entry.alsoFrom === undefined ? '' : ` + ${entry.alsoFrom.map((source) => SOURCE_NAMES[source]).join(' + ')}`}
        {entry.line === undefined ? ` · ${entry.path || '/'}` : ` · line ${entry.line}, column ${entry.column}`}
        {entry.offset === undefined || entry.line !== undefined ? '' : ` · offset ${entry.offset}`}
      </span>
    </button>
  );
}

/** Every issue as a button that takes the cursor to its place; what Google Wallet loses, apart. */
export function IssuesList(): JSX.Element {
  const list = shownIssues.value;
  const lost = shownGoogleIssues.value;
  const errors = list.filter((entry) => entry.severity === 'error').length;
  const warnings = list.length - errors;
  return (
    <>
      <p class="issue-summary" data-testid="issue-summary" role="status">
        {list.length === 0 ? 'No issues: the pass is valid.' : `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`}
      </p>
      <ul class="issues" data-testid="issues">
        {list.map((entry) => (
          <li key={entry.id}>
            <IssueButton entry={entry} />
          </li>
        ))}
      </ul>
      {lost.length === 0 ? null : (
        <details class="google-losses" data-testid="google-losses">
          <summary>
            Google Wallet: {lost.length} thing{lost.length === 1 ? '' : 's'} it does not show
          </summary>
          <p class="hint">
            What <code>toGoogleWallet</code> could not carry over. Apple Wallet is not affected.
          </p>
          <ul class="issues">
            {lost.map((entry) => (
              <li key={entry.id}>
                <IssueButton entry={entry} />
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}
