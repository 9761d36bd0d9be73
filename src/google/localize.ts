/** Google's LocalizedString: a default value and its translations. */
export interface LocalizedString {
  defaultValue: { language: string; value: string };
  translatedValues?: { language: string; value: string }[];
}

/** Translations of the pass's strings, per language (`pass.strings` of each `.lproj`). */
export type Strings = { readonly [language: string]: { readonly [key: string]: string } };

/** An `.lproj` name as the BCP 47 tag Google reads: `pt_BR` (Apple's older spelling) → `pt-BR`. */
export function languageTag(lproj: string): string {
  return lproj.replace(/_/g, '-');
}

/**
 * A text as Google's LocalizedString; each language whose `pass.strings`
 * translates the text (Wallet looks texts up as keys) adds a translated value.
 *
 * @example
 * ```ts
 * localized('Seat', 'en', { de: { Seat: 'Sitz' } });
 * // { defaultValue: { language: 'en', value: 'Seat' }, translatedValues: [{ language: 'de', value: 'Sitz' }] }
 * ```
 */
export function localized(text: string, language: string, strings: Strings | undefined): LocalizedString {
  const result: LocalizedString = { defaultValue: { language, value: text } };
  if (strings === undefined) return result;
  const translated: { language: string; value: string }[] = [];
  for (const [lang, table] of Object.entries(strings)) {
    if (Object.hasOwn(table, text)) translated.push({ language: languageTag(lang), value: table[text] as string });
  }
  if (translated.length > 0) result.translatedValues = translated;
  return result;
}

/** The translation of a text in each language that has one (`{ de: 'Sitz' }`). */
export function translationsOf(text: string, strings: Strings | undefined): { language: string; value: string }[] {
  if (strings === undefined) return [];
  return Object.entries(strings)
    .filter(([, table]) => Object.hasOwn(table, text))
    .map(([language, table]) => ({ language: languageTag(language), value: table[text] as string }));
}
