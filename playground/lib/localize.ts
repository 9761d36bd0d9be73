// The texts Wallet looks up in a language's pass.strings: a string at one of these
// keys is replaced by its translation when the table has it (Apple: "Localizing passes").
const LOCALIZABLE = new Set(['label', 'value', 'attributedValue', 'logoText', 'description', 'organizationName', 'altText', 'changeMessage', 'eventLogoText']);

function walk(node: unknown, visit: (text: string) => string | undefined, key: string | undefined): unknown {
  if (typeof node === 'string') return key !== undefined && LOCALIZABLE.has(key) ? (visit(node) ?? node) : node;
  if (Array.isArray(node)) return node.map((item) => walk(item, visit, key));
  if (typeof node !== 'object' || node === null) return node;
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(node)) {
    // semantics and userInfo are data, not shown text.
    const next = name === 'semantics' || name === 'userInfo' ? value : walk(value, visit, name);
    Object.defineProperty(copy, name, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/**
 * The pass as Wallet shows it in a language: each localizable text (labels, values,
 * logo text, description …) that is a key of the language's pass.strings replaced by
 * its translation.
 *
 * @example
 * ```ts
 * localizePass(pass, new Map([['Member', 'Mitglied']]));
 * ```
 */
export function localizePass<T>(pass: T, table: ReadonlyMap<string, string>): T {
  return walk(pass, (text) => table.get(text), undefined) as T;
}

/**
 * Every localizable text of a pass, once each, in order: what a pass.strings for it
 * would translate.
 *
 * @example
 * ```ts
 * localizableTexts(pass); // ['Northside Climbing', 'Level', 'Gold', …]
 * ```
 */
export function localizableTexts(pass: unknown): string[] {
  const found = new Set<string>();
  walk(
    pass,
    (text) => {
      if (text.trim() !== '') found.add(text);
      return undefined;
    },
    undefined,
  );
  return [...found];
}

/**
 * The texts a pass.strings for a template translates: the pass's localizable texts that
 * are the template's own — written in its body without a placeholder, or its name and
 * organization — not the values one holder's pass was filled with ("Grace Hopper").
 *
 * @example
 * ```ts
 * templateTexts(pass, template.description); // ['Northside Climbing', 'Level', 'Member', …] — no names, no member numbers
 * ```
 */
export function templateTexts(pass: { organizationName?: unknown; description?: unknown }, body: unknown): string[] {
  const own = new Set(localizableTexts(body).filter((text) => !text.includes('${')));
  for (const top of [pass.organizationName, pass.description]) if (typeof top === 'string') own.add(top);
  return localizableTexts(pass).filter((text) => own.has(text));
}

/** A pass.strings text with one `"text" = "text";` line per text, ready to translate. */
export function stringsTemplate(texts: readonly string[]): string {
  const quote = (text: string): string => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
  return `${texts.map((text) => `${quote(text)} = ${quote(text)};`).join('\n')}\n`;
}
