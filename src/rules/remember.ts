/**
 * A one-entry cache of a pure check on a text. The passes a service builds
 * repeat the same pass type identifier, team, web service URL and colors, so
 * the regular expressions behind them run once rather than on every pass.
 */
export function remember<T>(check: (text: string) => T): (text: string) => T {
  let last: { readonly text: string; readonly result: T } | undefined;
  return (text) => {
    if (last === undefined || last.text !== text) last = { text, result: check(text) };
    return last.result;
  };
}
