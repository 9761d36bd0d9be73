import { computed, signal } from '@preact/signals';
import type { ReadonlySignal } from '@preact/signals';
import { encodePassStrings, parsePassStrings } from '../src/index.js';
import type { Issue } from '../src/index.js';

// Localizations: one pass.strings text per language, as typed; parsed with the
// library's reader (the one verifyPass uses), packed as Apple's tools write them.

/** pass.strings as typed, per language (`de`, `pt-BR`). */
export const stringsTexts = signal<Readonly<Record<string, string>>>({});
/** The language the preview shows ('' for the pass's own texts). */
export const previewLanguage = signal('');

/** A language code as a .lproj folder name takes it. */
export const LANGUAGE = /^[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/;

/** Each language's table, or the issue that stops it from being read. */
export const stringsTables: ReadonlySignal<ReadonlyMap<string, ReadonlyMap<string, string> | Issue>> = computed(
  () => new Map(Object.entries(stringsTexts.value).map(([language, text]) => [language, parsePassStrings(new TextEncoder().encode(text))] as const)),
);

/** The `xx.lproj/pass.strings` files for a package (only the languages that read). */
export const stringsFiles: ReadonlySignal<Readonly<Record<string, Uint8Array>>> = computed(() =>
  Object.fromEntries(
    [...stringsTables.value].flatMap(([language, table]) =>
      table instanceof Map ? [[`${language}.lproj/pass.strings`, encodePassStrings([...table])] as const] : [],
    ),
  ),
);

/** The table the preview uses, when a language is chosen and reads. */
export const previewTable: ReadonlySignal<ReadonlyMap<string, string> | undefined> = computed(() => {
  const table = stringsTables.value.get(previewLanguage.value);
  return table instanceof Map ? table : undefined;
});

/** Adds a language (its pass.strings starts as `text`). */
export function addLanguage(language: string, text = ''): void {
  if (!LANGUAGE.test(language) || Object.hasOwn(stringsTexts.value, language)) return;
  stringsTexts.value = { ...stringsTexts.value, [language]: text };
}

/** Replaces a language's pass.strings text. */
export function setStrings(language: string, text: string): void {
  stringsTexts.value = { ...stringsTexts.value, [language]: text };
}

/** Removes a language. */
export function removeLanguage(language: string): void {
  stringsTexts.value = Object.fromEntries(Object.entries(stringsTexts.value).filter(([name]) => name !== language));
  if (previewLanguage.value === language) previewLanguage.value = '';
}
