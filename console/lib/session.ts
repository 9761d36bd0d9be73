import { computed, signal } from '@preact/signals';
import type { ReadonlySignal } from '@preact/signals';
import { ApiError, call, csrfToken, getJson, sessionLost } from './api.js';

/** A scope of an API key: `passes` grants `read`, `admin` grants everything. */
export type Scope = 'read' | 'passes' | 'admin';

/** The signed-in key as the session describes it (never the key itself). */
export interface SessionKey {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly Scope[];
  /** The templates the key is limited to; `null` or absent: all. */
  readonly templateIds?: readonly number[] | null;
}

interface SessionAnswer {
  readonly csrfToken: string;
  readonly key: SessionKey;
}

/** `undefined` while the page asks whether a session is live; `null` signed out. */
export const session = signal<SessionKey | null | undefined>(undefined);

/**
 * Whether the signed-in key may do what needs `scope`, as the service decides it
 * (the service checks every call anyway: this only hides controls that would be refused).
 */
export function can(scope: Scope): boolean {
  const scopes = session.value?.scopes ?? [];
  return scopes.includes(scope) || scopes.includes('admin') || (scope === 'read' && scopes.includes('passes'));
}

/** The key's name, for the header. */
export const keyName: ReadonlySignal<string> = computed(() => session.value?.name ?? '');

function accept(answer: SessionAnswer): void {
  csrfToken.value = answer.csrfToken;
  sessionLost.value = false;
  session.value = answer.key;
}

/** Asks the service whether the cookie holds a live session (on start). */
export async function resume(): Promise<void> {
  try {
    accept(await getJson<SessionAnswer>('/console/session'));
  } catch {
    session.value = null;
  }
}

/**
 * Exchanges the key for a session cookie. The key lives only in this call's
 * argument: the caller clears its input, nothing keeps it.
 */
export async function signIn(key: string): Promise<void> {
  accept(await getJson<SessionAnswer>('/console/session', { method: 'POST', json: { key } }));
}

/** Ends the session on the service and forgets the CSRF token. */
export async function signOut(): Promise<void> {
  try {
    await call('/console/session', { method: 'DELETE' });
  } catch (error) {
    // Already gone (401) is signed out too.
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
  } finally {
    csrfToken.value = undefined;
    session.value = null;
  }
}
