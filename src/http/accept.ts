const qualityValue = /^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/;
const token = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/**
 * Whether an `Accept` header lets the server answer `application/json`.
 *
 * The most specific range that covers JSON decides, with its weight
 * (RFC 9110 §12.5.1): `application/json;q=0` excludes JSON even next to
 * `*\/*`, `*\/*;q=0, application/json` allows it. A missing or empty header,
 * or one in which no member can be read, allows everything. Parameters other
 * than `q` are ignored.
 *
 * @example
 * ```ts
 * acceptsJson('text/html, application/*;q=0.5'); // true
 * acceptsJson('application/json;q=0, *\/*'); // false
 * ```
 */
export function acceptsJson(header: string | null): boolean {
  if (header === null || header === '' || header === '*/*' || header === 'application/json') return true;
  let readable = false;
  let specificity = 0;
  let weight = 0;
  for (const member of header.split(',')) {
    const parameters = member.split(';');
    const range = (parameters[0] ?? '').trim().toLowerCase();
    const slash = range.indexOf('/');
    const type = range.slice(0, slash);
    const subtype = range.slice(slash + 1);
    if (slash === -1 || !token.test(type) || !token.test(subtype) || (type === '*' && subtype !== '*')) continue;
    let q = 1;
    let valid = true;
    for (let index = 1; index < parameters.length; index++) {
      const parameter = (parameters[index] ?? '').trim();
      if (parameter.length < 2 || (parameter.charCodeAt(0) | 0x20) !== 0x71 || parameter.charCodeAt(1) !== 0x3d) continue;
      const value = parameter.slice(2);
      if (!qualityValue.test(value)) valid = false;
      else q = Number(value);
      break;
    }
    if (!valid) continue;
    readable = true;
    const covers = type === 'application' && subtype === 'json' ? 3 : type === 'application' && subtype === '*' ? 2 : type === '*' ? 1 : 0;
    if (covers > specificity || (covers === specificity && covers > 0 && q > weight)) {
      specificity = covers;
      weight = q;
    }
  }
  return !readable || weight > 0;
}
