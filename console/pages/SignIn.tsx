import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { ErrorNote } from '../components/Notes.js';
import { signIn } from '../lib/session.js';

/**
 * Asks for an API key once and trades it for a session cookie. The key is read
 * from the field when the form is sent and the field is emptied at once: it is
 * in no signal, no storage and no address.
 */
export function SignInPage({ expired }: { expired: boolean }): JSX.Element {
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const submit = (event: SubmitEvent): void => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const field = form.elements.namedItem('key') as HTMLInputElement;
    const key = field.value.trim();
    field.value = '';
    if (key === '') {
      setError(new Error('Paste an API key.'));
      field.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    signIn(key).then(
      () => setBusy(false),
      (failure: unknown) => {
        setBusy(false);
        setError(failure);
        field.focus();
      },
    );
  };
  return (
    <main id="main" class="sign-in">
      <h1>passmint console</h1>
      {expired ? (
        <p class="notice" role="status">
          Your session ended (signed out elsewhere, idle for 12 hours, or its key was revoked). Sign in again.
        </p>
      ) : null}
      <form onSubmit={submit} data-testid="sign-in">
        <label for="key">API key</label>
        <input id="key" name="key" type="password" autoComplete="off" spellcheck={false} required aria-describedby="key-help" data-testid="key-input" />
        <p id="key-help" class="note">
          A key made by <code>passmint serve</code> or on the Keys page. It is exchanged for a session cookie and not kept by this browser; what you see follows
          its scopes.
        </p>
        <button type="submit" disabled={busy} data-testid="sign-in-button">
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <ErrorNote error={error} />
    </main>
  );
}
