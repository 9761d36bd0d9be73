import type { JSX } from 'preact';
import { revealIssue } from '../lib/editor-bridge.js';
import { issues, type IssueSource } from '../state.js';

const SOURCE_NAMES: Readonly<Record<IssueSource, string>> = {
  json: 'JSON',
  template: 'validateTemplate',
  value: 'value',
  render: 'render',
  pass: 'validatePass',
  preview: 'preview',
  image: 'images',
};

/** Every issue as a button that takes the cursor to its place. */
export function IssuesList(): JSX.Element {
  const list = issues.value;
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
            <button type="button" class={`issue ${entry.severity}`} data-code={entry.code} data-severity={entry.severity} data-source={entry.source} onClick={() => revealIssue(entry)}>
              <span class="issue-severity">{entry.severity}</span>
              <span class="issue-code">{entry.code}</span>
              <span class="issue-message">{entry.message}</span>
              <span class="issue-where">
                {SOURCE_NAMES[entry.source]}
                {entry.alsoFrom === undefined ? '' : ` + ${entry.alsoFrom.map((source) => SOURCE_NAMES[source]).join(' + ')}`}
                {entry.line === undefined ? ` · ${entry.path || '/'}` : ` · line ${entry.line}, column ${entry.column}`}
                {entry.offset === undefined || entry.line !== undefined ? '' : ` · offset ${entry.offset}`}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
