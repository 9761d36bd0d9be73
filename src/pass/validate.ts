import { type Issue, type Report, toReport } from '../issues.js';
import { sortByDocumentOrder } from '../document-order.js';
import { checkPassRules } from '../rules/pass-body.js';

/**
 * Options of {@link validatePass}.
 *
 * @example
 * ```ts
 * const options: ValidatePassOptions = { allowHttp: true }; // a development server
 * validatePass(pass, options);
 * ```
 */
export interface ValidatePassOptions {
  /**
   * Accept a plain `http://` `webServiceURL` with a warning instead of an
   * error (Wallet allows it on development devices only). Default `false`.
   */
  readonly allowHttp?: boolean;
}

/**
 * Checks a pass.json against Apple's rules: the shape
 * `passmint/schemas/pass.json` describes, and every rule Wallet applies that a schema
 * cannot express — unique field keys across the style body, W3C dates,
 * colors, barcode formats and capacities (the character sets of iOS 27's
 * linear formats too), https web service, identifiers, iOS 27's
 * `posterGeneric` and `featuredActions`, the semantic tags a poster event
 * ticket needs …
 * Each issue has a stable `code`, a message and a JSON Pointer `path`. An
 * error means Wallet refuses the pass; what Wallet accepts but ignores or
 * hides (`hex-color`, `unknown-key`, `too-many-fields` …) is a warning, which
 * never makes `ok` false (src/rules/SOURCES.md). Issues come in document order.
 *
 * Never throws, whatever it is given (cycles, throwing getters, proxies …),
 * and costs time linear in its input (a client may run it on what a server sends).
 *
 * @example
 * ```ts
 * const report = validatePass({ ...pass, webServiceURL: 'http://localhost:8080/' });
 * report.ok; // false: insecure-web-service-url at /webServiceURL
 * validatePass(pass, { allowHttp: true }).ok; // true for that pass, with a warning
 * ```
 */
export function validatePass(pass: unknown, options?: ValidatePassOptions): Report {
  try {
    // Apple's rules check everything `pass.schema.json` does, at the same
    // paths (property tests hold them to it: every schema issue has a rules
    // error at its path), so the compiled schema is not run here at all.
    const issues = checkPassRules(pass, options?.allowHttp === true);
    return toReport(inDocumentOrder(issues, pass));
  } catch {
    return toReport([{ severity: 'error', code: 'invalid-pass', path: '', message: 'The pass could not be read (a property access threw)' }]);
  }
}

function inDocumentOrder(issues: Issue[], pass: unknown): Issue[] {
  try {
    return sortByDocumentOrder(issues, pass);
  } catch {
    return issues;
  }
}
