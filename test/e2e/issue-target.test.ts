import { describe, expect, test } from 'vitest';
import { issueTarget, issuerInputId, valueInputId } from '../../playground/lib/issue-target.js';
import { parseJsonTree } from '../../playground/lib/json-locate.js';
import type { IssueEntry } from '../../playground/state.js';

// Where clicking an issue in the playground takes the cursor.
const text = `{
  "name": "Card",
  "passType": "pass.com.example",
  "description": {
    "logoText": "Hi \\n\${nmae}!",
    "generic": { "primaryFields": [{ "key": "a", "value": "x", "textAlignment": "PKTextAlignmentRight" }] }
  },
  "placeholder": ["name"]
}
`;
const tree = parseJsonTree(text);
const entry = (partial: Partial<IssueEntry> & Pick<IssueEntry, 'source' | 'path'>): IssueEntry => ({
  id: 'x',
  severity: 'error',
  code: 'invalid-template',
  message: 'm',
  ...partial,
});
const selected = (target: ReturnType<typeof issueTarget>): string | undefined =>
  target?.kind === 'editor' ? text.slice(Math.min(target.anchor, target.head), Math.max(target.anchor, target.head)) : undefined;

describe('issueTarget', () => {
  test('a template issue with an offset selects the placeholder itself, past escapes', () => {
    const target = issueTarget(
      entry({ source: 'template', path: '/description/logoText', offset: 4, placeholder: 'nmae', code: 'undeclared-placeholder' }),
      text,
      tree,
    );
    expect(selected(target)).toBe('${nmae}');
  });

  test('a pass issue is mapped into the template body', () => {
    const target = issueTarget(entry({ source: 'pass', path: '/generic/primaryFields/0/textAlignment' }), text, tree);
    expect(selected(target)).toBe('"textAlignment": "PKTextAlignmentRight"');
  });

  test('a pass key from the template itself goes to its member', () => {
    expect(selected(issueTarget(entry({ source: 'pass', path: '/passTypeIdentifier' }), text, tree))).toBe('"passType": "pass.com.example"');
  });

  test('a pass key the issuer sets goes to the issuer form', () => {
    expect(issueTarget(entry({ source: 'pass', path: '/webServiceURL' }), text, tree)).toEqual({ kind: 'input', id: issuerInputId('webServiceURL') });
  });

  test('a missing key lands on the deepest member that exists', () => {
    const target = issueTarget(entry({ source: 'pass', path: '/generic/transitType' }), text, tree);
    expect(target).toMatchObject({ kind: 'editor', exact: false });
    expect(target?.kind === 'editor' && text.slice(target.anchor, target.anchor + 9)).toBe('"generic"');
  });

  test('a value problem without a place in the text goes to the values form', () => {
    expect(issueTarget(entry({ source: 'render', path: '', placeholder: 'name', code: 'missing-value' }), text, tree)).toEqual({
      kind: 'input',
      id: valueInputId('name'),
    });
  });

  test('a JSON error goes to its offset', () => {
    expect(issueTarget(entry({ source: 'json', path: '', offset: 5 }), text, tree)).toEqual({ kind: 'editor', anchor: 5, head: 5, exact: true });
  });
});
