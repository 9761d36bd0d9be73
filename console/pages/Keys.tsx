import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { ErrorNote, Loading, When, TableScroll } from '../components/Notes.js';
import { getJson } from '../lib/api.js';
import { can, type Scope, session } from '../lib/session.js';
import { useLoad } from '../lib/use-load.js';

interface ApiKey {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly prefix: string;
  readonly created: string;
  readonly lastUsed: string | null;
  readonly key?: string;
}

const SCOPES: readonly { scope: Scope; explain: string }[] = [
  { scope: 'read', explain: 'read templates, passes, webhooks and stats' },
  { scope: 'passes', explain: 'also make, change, import, void passes and send messages' },
  { scope: 'admin', explain: 'everything: templates, webhooks, keys' },
];

function NewKey({ onCreated }: { onCreated: () => void }): JSX.Element {
  const [error, setError] = useState<unknown>(undefined);
  const [made, setMade] = useState<ApiKey | undefined>(undefined);
  const create = (event: SubmitEvent): void => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const name = (form.elements.namedItem('name') as HTMLInputElement).value.trim();
    const scopes = SCOPES.map((item) => item.scope).filter((scope) => (form.elements.namedItem(`scope-${scope}`) as HTMLInputElement).checked);
    setError(undefined);
    getJson<ApiKey>('/v1/keys', { method: 'POST', json: { name, scopes } }).then((key) => {
      form.reset();
      setMade(key);
      onCreated();
    }, setError);
  };
  return (
    <form class="panel" onSubmit={create} data-testid="new-key">
      <h2>New key</h2>
      <div class="field-row">
        <label for="key-name">Name</label>
        <input id="key-name" name="name" type="text" required maxLength={100} />
      </div>
      <fieldset>
        <legend>Scopes</legend>
        {SCOPES.map((item) => (
          <label key={item.scope} class="check">
            <input type="checkbox" name={`scope-${item.scope}`} defaultChecked={item.scope === 'read'} /> <code>{item.scope}</code>: {item.explain}
          </label>
        ))}
      </fieldset>
      <button type="submit" class="primary" data-testid="create-key">
        Create the key
      </button>
      {made?.key === undefined ? null : (
        <div class="once" role="alert" data-testid="new-key-value">
          <p>
            The key “{made.name}” ({made.scopes.join(', ')}), shown this once — copy it now:
          </p>
          <p>
            <code class="wrap">{made.key}</code>
          </p>
          <button type="button" onClick={() => setMade(undefined)}>
            I have copied it
          </button>
        </div>
      )}
      <ErrorNote error={error} />
    </form>
  );
}

/** API keys: create (shown once, with scopes), revoke. Needs `admin`. */
export function KeysPage(): JSX.Element {
  const admin = can('admin');
  const { data, error, loading, reload } = useLoad(() => (admin ? getJson<{ items: ApiKey[] }>('/v1/keys') : Promise.resolve({ items: [] })), [admin]);
  const [revokeError, setRevokeError] = useState<unknown>(undefined);
  if (!admin) {
    return (
      <>
        <h1 tabIndex={-1}>Keys</h1>
        <p class="notice">Managing keys needs an admin key.</p>
      </>
    );
  }
  const revoke = (key: ApiKey): void => {
    const own = key.id === session.peek()?.id;
    if (!confirm(own ? 'This is the key you signed in with: revoking it signs you out. Revoke?' : `Revoke the key “${key.name}”?`)) return;
    setRevokeError(undefined);
    getJson(`/v1/keys/${encodeURIComponent(key.id)}`, { method: 'DELETE' }).then(reload, setRevokeError);
  };
  return (
    <>
      <h1 tabIndex={-1}>Keys</h1>
      <NewKey onCreated={reload} />
      {loading && data === undefined ? <Loading /> : null}
      <ErrorNote error={error ?? revokeError} />
      {data === undefined ? null : (
        <TableScroll label="Keys">
          <table data-testid="keys">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scopes</th>
                <th scope="col">Starts with</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((key) => (
                <tr key={key.id}>
                  <td class="wrap">{key.name}</td>
                  <td>{key.scopes.join(', ')}</td>
                  <td>
                    <code>{key.prefix}</code>
                  </td>
                  <td>
                    <When at={key.lastUsed} />
                  </td>
                  <td>
                    <button type="button" onClick={() => revoke(key)} aria-label={`Revoke ${key.name}`}>
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}
