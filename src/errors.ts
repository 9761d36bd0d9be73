import type { Issue } from './issues.js';

/**
 * Base class of every error passmint throws; `issues` lists what went wrong, located.
 *
 * @example
 * ```ts
 * try { compileTemplate(template); } catch (error) {
 *   if (error instanceof PassmintError) console.error(error.issues);
 * }
 * ```
 */
export class PassmintError extends Error {
  override name = 'PassmintError';
  readonly issues: readonly Issue[];

  constructor(message: string, issues: readonly Issue[]) {
    super(summarize(message, issues));
    this.issues = issues;
  }
}

/**
 * A template that cannot be compiled: its `issues` are those `validateTemplate` reports as errors.
 *
 * @example
 * ```ts
 * expect(() => compileTemplate(bad)).toThrow(TemplateError);
 * ```
 */
export class TemplateError extends PassmintError {
  override name = 'TemplateError';
}

/**
 * Values that cannot be rendered into a template (`missing-value`, `invalid-value`, `unknown-value`).
 *
 * @example
 * ```ts
 * try { compiled.render({}); } catch (error) {
 *   if (error instanceof RenderError) error.issues.map((issue) => issue.placeholder);
 * }
 * ```
 */
export class RenderError extends PassmintError {
  override name = 'RenderError';
}

/**
 * A pass that `buildPass` made but `validatePass` refused; `issues` holds the full report's issues.
 *
 * @example
 * ```ts
 * try { buildPass(template, values, issuer); } catch (error) {
 *   if (error instanceof PassValidationError) console.error(error.issues);
 * }
 * ```
 */
export class PassValidationError extends PassmintError {
  override name = 'PassValidationError';
}

function summarize(message: string, issues: readonly Issue[]): string {
  const errors = issues.filter((issue) => issue.severity === 'error');
  const first = errors[0];
  if (first === undefined) return message;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `${message}: ${first.message} at ${first.path || '/'}${more}`;
}
