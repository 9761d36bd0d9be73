import { lazyComponent, type LazyComponent } from '../lib/lazy.js';
import { PlainEditor } from './PlainEditor.js';

// CodeMirror is most of the playground's JavaScript: it comes in its own chunk, fetched
// as soon as the page starts, so the preview and the form appear without waiting for it.
export const Editor: LazyComponent<Record<string, never>> = lazyComponent(() => import('./Editor.js').then((module) => module.Editor), PlainEditor);

const Loading = (): null => null;

// The webhook tool sits in a closed <details>: its code loads when it is opened.
export const WebhookTool: LazyComponent<Record<string, never>> = lazyComponent(() => import('./WebhookTool.js').then((module) => module.WebhookTool), Loading);

// The inspector's shell (a drop zone) is small and always there; its report, and
// verifyPass/readPass behind it, load with the first package (see Inspector.tsx).
export { Inspector } from './Inspector.js';
