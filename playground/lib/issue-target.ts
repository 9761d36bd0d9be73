import type { Tree } from '@lezer/common';
import type { IssueEntry } from '../state.js';
import { literalIndex, locatePointer } from './json-locate.js';

/** Where clicking an issue takes the person: a range of the editor text, or a form input. */
export type IssueTarget =
  | { readonly kind: 'editor'; readonly anchor: number; readonly head: number; readonly exact: boolean }
  | { readonly kind: 'input'; readonly id: string };

/** The id of the values form's input for a placeholder. */
export const valueInputId = (name: string): string => `value:${name}`;
/** The id of an image slot's file input: `logo@2x.png` → `image-logo-2`. */
export const imageInputId = (path: string): string => {
  const match = /^([a-zA-Z]+)(?:@([23])x)?\.png$/.exec(path);
  return `image-${match?.[1] ?? 'icon'}-${match?.[2] ?? '1'}`;
};
/** The id of the issuer form's input for a pass key. */
export const issuerInputId = (key: string): string => `issuer:${key}`;

const ISSUER_KEYS = new Set(['serialNumber', 'teamIdentifier', 'organizationName', 'authenticationToken', 'webServiceURL']);
// Pass keys that come from the template's own members rather than from its body.
const TEMPLATE_MEMBERS: Readonly<Record<string, string>> = {
  passTypeIdentifier: '/passType',
  formatVersion: '/formatVersion',
  description: '/name',
};

function passPointerToTemplate(path: string): string | { input: string } {
  const top = path.split('/')[1] ?? '';
  if (ISSUER_KEYS.has(top)) return { input: issuerInputId(top) };
  const member = TEMPLATE_MEMBERS[top];
  if (member !== undefined) return member;
  // A pass's body keys sit under the template's `description`, in the same order and at the same indices.
  return `/description${path}`;
}

/**
 * Where an issue points in the editor text (a JSON Pointer into the template,
 * narrowed to the placeholder when the issue has an `offset`) or in a form.
 *
 * @example
 * ```ts
 * issueTarget(entry, view.state.doc.toString(), syntaxTree(view.state));
 * ```
 */
export function issueTarget(entry: IssueEntry, text: string, tree: Tree): IssueTarget | undefined {
  if (entry.source === 'json') {
    const at = Math.min(entry.offset ?? 0, text.length);
    return { kind: 'editor', anchor: at, head: at, exact: true };
  }
  if (entry.source === 'value') return { kind: 'input', id: valueInputId(entry.path) };
  if (entry.source === 'strings') return { kind: 'input', id: `strings-${entry.path.replace(/^\/|\.lproj\/pass\.strings$/g, '')}` };
  if (entry.source === 'image') return { kind: 'input', id: imageInputId(entry.path.replace(/^\//, '')) };

  let pointer = entry.path;
  if (entry.source === 'pass' || entry.source === 'preview' || entry.source === 'google' || entry.source === 'design') {
    const mapped = passPointerToTemplate(entry.path);
    if (typeof mapped !== 'string') return { kind: 'input', id: mapped.input };
    pointer = mapped;
  }
  const location = locatePointer(text, tree, pointer);
  // A render issue about a value (missing, invalid) with no place in the text belongs to the form.
  if (entry.source === 'render' && entry.placeholder !== undefined && (location === undefined || !location.exact || pointer === '')) {
    return { kind: 'input', id: valueInputId(entry.placeholder) };
  }
  if (location === undefined) return undefined;
  if (location.exact && location.isString && entry.offset !== undefined && entry.source !== 'pass') {
    const literal = text.slice(location.from, location.to);
    const anchor = location.from + literalIndex(literal, entry.offset);
    const length = entry.placeholder === undefined ? 0 : entry.placeholder.length + 3;
    return { kind: 'editor', anchor, head: location.from + literalIndex(literal, entry.offset + length), exact: true };
  }
  const anchor = location.keyFrom ?? location.from;
  const scalar = location.exact && !/^[[{]/.test(text.slice(location.from, location.from + 1));
  return { kind: 'editor', anchor, head: scalar ? location.to : anchor, exact: location.exact };
}
