import type { JSX } from 'preact';
import { issuerInputId } from '../lib/issue-target.js';
import { issuer, type IssuerState, regenerateIdentifiers, setIssuer } from '../state.js';

type TextKey = Exclude<keyof IssuerState, 'allowHttp'>;

const FIELDS: readonly { key: TextKey; label: string; hint?: string }[] = [
  { key: 'teamIdentifier', label: 'Team identifier', hint: '10 characters, from your Apple developer account' },
  { key: 'organizationName', label: 'Organization name' },
  { key: 'webServiceURL', label: 'Web service URL', hint: 'empty: no web service, no token' },
  { key: 'serialNumber', label: 'Serial number' },
  { key: 'authenticationToken', label: 'Authentication token' },
];

/** The issuer fields `buildPass` adds to the rendered body. */
export function IssuerForm(): JSX.Element {
  const current = issuer.value;
  return (
    <div class="issuer" data-testid="issuer-form">
      {FIELDS.map(({ key, label, hint }) => (
        <div class="value-row" key={key}>
          <label for={issuerInputId(key)}>{label}</label>
          <input
            id={issuerInputId(key)}
            type="text"
            inputMode={key === 'webServiceURL' ? 'url' : 'text'}
            value={current[key]}
            spellcheck={false}
            title={hint ?? label}
            placeholder={hint ?? ''}
            onInput={(event) => setIssuer({ [key]: event.currentTarget.value })}
          />
        </div>
      ))}
      <div class="issuer-actions">
        <button type="button" onClick={regenerateIdentifiers} data-testid="regenerate">
          New serial and token
        </button>
        <label>
          <input type="checkbox" checked={current.allowHttp} onChange={(event) => setIssuer({ allowHttp: event.currentTarget.checked })} />
          Allow http:// (development devices)
        </label>
      </div>
    </div>
  );
}
