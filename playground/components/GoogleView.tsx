import type { JSX } from 'preact';
import { googlePass } from '../state.js';
import { GoogleCard } from './GoogleCard.js';

/** The shown pass as Google Wallet draws it (this module and the mapping load when the page is idle). */
export function GoogleView(): JSX.Element {
  const pass = googlePass.value;
  if (pass === undefined) return <p class="empty">Google Wallet's view is loading…</p>;
  return <GoogleCard pass={pass} />;
}
