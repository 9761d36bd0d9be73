/**
 * Whether a text is non-empty and made only of visible ASCII characters
 * (`!` to `~`): what an API key must be to travel in a header unchanged.
 *
 * @example
 * ```ts
 * isVisibleAscii('k_3x!'); // true
 * isVisibleAscii('two words'); // false
 * ```
 */
export function isVisibleAscii(text: string): boolean {
  if (text.length === 0) return false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x21 || code > 0x7e) return false;
  }
  return true;
}
