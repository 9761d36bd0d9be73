import { sortByDocumentOrder } from '../document-order.js';
import { joinPointer, toReport, type Issue, type Report } from '../issues.js';
import { checkPassBody } from '../rules/pass-body.js';
import { hasPlaceholderSyntax, scan, type Segment } from '../placeholder/scan.js';
import { checkTemplateShape } from '../schema/check.js';
import { closestName } from '../suggest.js';
import { jsonProblems } from './json.js';

/** What the template checks learn besides the issues; compile reuses it. */
export interface TemplateAnalysis {
  readonly report: Report;
  readonly declared: readonly string[];
  /**
   * The segments of every string of `description` that holds `\${`, by text:
   * compile plans from these instead of scanning each string again.
   */
  readonly scans: ReadonlyMap<string, readonly Segment[]>;
}

/**
 * Checks a pass template: its shape, its placeholder notation, that every name
 * used is declared (and every declared name used), and Apple's rules on the
 * parts of `description` (the pass body) that hold no placeholder. Issues
 * come in document order (the template's members in key order, a string's
 * text problems by `offset`), as `validatePass` gives a pass's.
 *
 * Never throws, whatever it is given; costs time linear in the template's size.
 *
 * @example
 * ```ts
 * const report = validateTemplate({
 *   id: 1, name: 'Member', formatVersion: 1, passType: 'pass.com.example.member',
 *   description: { generic: { primaryFields: [{ key: 'name', value: '${nmae}' }] } },
 *   placeholder: ['name'],
 * });
 * report.issues[0]?.code; // 'undeclared-placeholder' — "did you mean "name"?"
 * ```
 */
export function validateTemplate(template: unknown): Report {
  return analyzeTemplate(template).report;
}

/** {@link validateTemplate}, plus the declared names and every use found. */
export function analyzeTemplate(template: unknown): TemplateAnalysis {
  try {
    return analyze(template);
  } catch (error) {
    // Getters that throw, revoked proxies …: still a report, never an exception.
    const why = error instanceof Error ? error.message : String(error);
    const issue: Issue = { severity: 'error', code: 'invalid-template', message: `The template could not be read: ${why}`, path: '' };
    return { report: toReport([issue]), declared: [], scans: new Map() };
  }
}

function analyze(template: unknown): TemplateAnalysis {
  const issues = checkTemplateShape(template);
  const scans = new Map<string, readonly Segment[]>();
  if (typeof template !== 'object' || template === null) return { report: toReport(issues), declared: [], scans };
  const record = template as Record<string, unknown>;

  const body = record['description'];
  const bodyIsObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  // Declared names first, so each use is checked as the walk finds it; the
  // issues are gathered check by check (notation, JSON, duplicates,
  // undeclared, unused, Apple's rules) and then put in document order.
  const duplicates: Issue[] = [];
  const declared = declaredNames(record['placeholder'], duplicates);
  const declaredSet = new Set(declared);
  const used = new Set<string>();
  const undeclared: Issue[] = [];
  // A text met again (wide templates repeat theirs) is not scanned again: its
  // segments and notation issues are the same, only the path differs.
  const notation = new Map<string, readonly Issue[]>();
  // "Did you mean": once per undeclared name, and for the first SUGGESTIONS
  // names only — each looks at every declared name, so a template of
  // thousands of undeclared names and thousands of declared ones would
  // otherwise cost their product.
  const suggestions = new Map<string, string | undefined>();
  const suggest = (name: string): string | undefined => {
    if (suggestions.has(name)) return suggestions.get(name);
    const suggestion = suggestions.size < SUGGESTIONS ? closestName(name, declaredSet) : undefined;
    suggestions.set(name, suggestion);
    return suggestion;
  };
  if (bodyIsObject) {
    const problems = jsonProblems(body, '/description', (text, pointer) => {
      if (!hasPlaceholderSyntax(text)) return;
      let segments = scans.get(text);
      let path: string | undefined;
      if (segments === undefined) {
        path = pointer();
        const scanned = scan(text, path);
        segments = scanned.segments;
        scans.set(text, segments);
        if (scanned.issues.length > 0) {
          notation.set(text, scanned.issues);
          for (const issue of scanned.issues) issues.push(issue);
        }
      } else {
        const known = notation.get(text);
        if (known !== undefined) {
          path = pointer();
          for (const issue of known) issues.push({ ...issue, path: path });
        }
      }
      for (const segment of segments) {
        if (segment.type !== 'placeholder') continue;
        used.add(segment.name);
        if (declaredSet.has(segment.name)) continue;
        const suggestion = suggest(segment.name);
        undeclared.push({
          severity: 'error',
          code: 'undeclared-placeholder',
          message: `Placeholder "${segment.name}" is not in the placeholder array` + (suggestion === undefined ? '' : `; did you mean "${suggestion}"?`),
          path: (path ??= pointer()),
          placeholder: segment.name,
          offset: segment.offset,
        });
      }
    });
    for (const { path, why } of problems) {
      issues.push({ severity: 'error', code: 'invalid-template', message: `Not a JSON value: ${why}`, path });
    }
  }
  for (const issue of duplicates) issues.push(issue);
  for (const issue of undeclared) issues.push(issue);
  const reported = new Set<string>();
  declared.forEach((name, index) => {
    if (!used.has(name) && !reported.has(name)) {
      reported.add(name);
      issues.push({
        severity: 'warning',
        code: 'unused-placeholder',
        message: `Placeholder "${name}" is declared but never used`,
        path: joinPointer('/placeholder', index),
        placeholder: name,
      });
    }
  });

  if (bodyIsObject) {
    for (const issue of checkPassBody(body, '/description', hasPlaceholderSyntax)) issues.push(issue);
  }
  return { report: toReport(inDocumentOrder(issues, template)), declared, scans };
}

// Undeclared names that get a "did you mean" (see `suggest` in analyze).
const SUGGESTIONS = 64;

/** Issues in the order of the template's text, as validatePass gives a pass's; as found when the template cannot be read again. */
function inDocumentOrder(issues: Issue[], template: object): Issue[] {
  try {
    return sortByDocumentOrder(issues, template);
  } catch {
    return issues;
  }
}

function declaredNames(list: unknown, issues: Issue[]): string[] {
  if (!Array.isArray(list)) return [];
  const names: string[] = [];
  const seen = new Set<string>();
  list.forEach((name: unknown, index) => {
    if (typeof name !== 'string') return; // the shape check reports it
    if (seen.has(name)) {
      issues.push({
        severity: 'warning',
        code: 'duplicate-placeholder',
        message: `Placeholder "${name}" is declared more than once`,
        path: joinPointer('/placeholder', index),
        placeholder: name,
      });
    }
    seen.add(name);
    names.push(name);
  });
  return names;
}
