import { type Issue, type Report, toReport } from '../issues.js';
import { checkPassShape } from '../schema/check.js';
import { sortByDocumentOrder } from './document-order.js';
import { checkPassBody, checkPassKeys } from './rules.js';

/** Options of {@link validatePass}. */
export interface ValidatePassOptions {
  /**
   * Accept a plain `http://` `webServiceURL` with a warning instead of an
   * error (Wallet allows it on development devices only). Default `false`.
   */
  readonly allowHttp?: boolean;
}

const notDynamic = (): boolean => false;
const WARN_HEX = { warnHexColors: true } as const;

/**
 * Checks a pass.json against Apple's rules: the JSON Schema shape
 * (`passmint/schemas/pass.json`) and every rule Wallet applies that a schema
 * cannot express — unique field keys across the style body, W3C dates,
 * colors, barcode formats, https web service, identifiers … Each issue has a
 * stable `code`, a message and a JSON Pointer `path`; warnings (`hex-color`,
 * `unknown-key` …) never make `ok` false.
 *
 * Never throws, whatever it is given (cycles, throwing getters, proxies …).
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
    const allowHttp = options?.allowHttp === true;
    const issues: Issue[] = [];
    checkPassKeys({ issues, isDynamic: notDynamic, warnHexColors: true }, pass, allowHttp);
    const body = checkPassBody(pass, '', notDynamic, WARN_HEX);
    for (const issue of body) issues.push(issue);
    // The rules check everything the schema does, more precisely; the schema
    // is the safety net for a member the rules said nothing about.
    const shape = checkPassShape(pass);
    if (shape.length > 0) {
      const located = new Set<string>();
      for (const issue of issues) located.add(issue.path);
      for (const issue of shape) if (!located.has(issue.path)) issues.push(issue);
    }
    return toReport(inDocumentOrder(issues, pass));
  } catch {
    return toReport([
      { severity: 'error', code: 'invalid-pass', path: '', message: 'The pass could not be read (a property access threw)' },
    ]);
  }
}

function inDocumentOrder(issues: Issue[], pass: unknown): Issue[] {
  try {
    return sortByDocumentOrder(issues, pass);
  } catch {
    return issues;
  }
}
