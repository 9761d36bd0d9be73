import { joinPointer, toReport, type Issue, type Report } from '../issues.js';
import { checkPassBody } from '../pass/rules.js';
import { hasPlaceholderSyntax, scan } from '../placeholder/scan.js';
import { checkTemplateShape } from '../schema/check.js';
import { closestName } from './suggest.js';
import { jsonProblems } from './json.js';

/** Where a placeholder name is used: the string's pointer and the `$`'s offset. */
export interface PlaceholderUse {
  readonly name: string;
  readonly path: string;
  readonly offset: number;
}

/** What the template checks learn besides the issues; compile reuses it. */
export interface TemplateAnalysis {
  readonly report: Report;
  readonly declared: readonly string[];
  readonly uses: readonly PlaceholderUse[];
}

/**
 * Checks a pass template: its shape, its placeholder notation, that every name
 * used is declared (and every declared name used), and Apple's rules on the
 * parts of `description` (the pass body) that hold no placeholder.
 *
 * Never throws, whatever it is given.
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
    return { report: toReport([issue]), declared: [], uses: [] };
  }
}

function analyze(template: unknown): TemplateAnalysis {
  const issues = checkTemplateShape(template);
  if (typeof template !== 'object' || template === null) return { report: toReport(issues), declared: [], uses: [] };
  const record = template as Record<string, unknown>;

  const uses: PlaceholderUse[] = [];
  const body = record['description'];
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const problems = jsonProblems(body, '/description', (text, pointer) => {
        if (!hasPlaceholderSyntax(text)) return;
        const path = pointer();
        const scanned = scan(text, path);
        issues.push(...scanned.issues);
        for (const segment of scanned.segments) {
          if (segment.type === 'placeholder') uses.push({ name: segment.name, path, offset: segment.offset });
        }
      });
    for (const { path, why } of problems) {
      issues.push({ severity: 'error', code: 'invalid-template', message: `Not a JSON value: ${why}`, path });
    }
  }

  const declared = declaredNames(record['placeholder'], issues);
  const declaredSet = new Set(declared);
  const used = new Set<string>();
  for (const use of uses) {
    used.add(use.name);
    if (declaredSet.has(use.name)) continue;
    const suggestion = closestName(use.name, declaredSet);
    issues.push({
      severity: 'error',
      code: 'undeclared-placeholder',
      message:
        `Placeholder "${use.name}" is not in the placeholder array` +
        (suggestion === undefined ? '' : `; did you mean "${suggestion}"?`),
      path: use.path,
      placeholder: use.name,
      offset: use.offset,
    });
  }
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

  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    issues.push(...checkPassBody(body, '/description', hasPlaceholderSyntax));
  }
  return { report: toReport(issues), declared, uses };
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
