import { TemplateError } from '../errors.js';
import type { JsonValue, PassBody, PassTemplate, TemplateValues } from '../types.js';
import { fusedRenderOf, generatePlan } from './codegen.js';
import { interpretPlan, type Builder } from './interpret.js';
import { planBody } from './plan.js';
import { registerPlan } from './registry.js';
import { analyzeTemplate } from './validate.js';
import { resolveValues } from './values.js';

/** Options of {@link compileTemplate} and {@link renderTemplate}. */
export interface CompileOptions {
  /** Values for names the template does not declare are an `unknown-value` error instead of being ignored. */
  readonly strict?: boolean;
  /**
   * `true` (default): render with a function generated for this template when
   * the runtime allows `new Function` — the fastest way — and otherwise with
   * the interpreter. `false`: always the interpreter, which never generates
   * code (for a Content-Security-Policy without `'unsafe-eval'`, or to compare).
   * Both give identical output.
   *
   * @example
   * ```ts
   * const compiled = compileTemplate(template, { codegen: false });
   * ```
   */
  readonly codegen?: boolean;
}

/** The names a template declares, as a union of string literals when the template is a `const` literal. */
export type PlaceholderNames<TTemplate extends PassTemplate> = TTemplate['placeholder'][number];

/**
 * A template checked and prepared once, to render many passes.
 *
 * @example
 * ```ts
 * const compiled = compileTemplate(template);
 * const body = compiled.render({ eventName: 'Concert', seat: '12B' });
 * ```
 */
export interface CompiledTemplate<TName extends string = string> {
  /** The template it was compiled from (kept as given, never changed). */
  readonly template: PassTemplate<TName>;
  /** The declared placeholder names, in order, each once. */
  readonly placeholders: readonly TName[];
  /** Renders one pass body; throws `RenderError` listing every missing or invalid value. */
  render(values: TemplateValues<TName>): PassBody;
}

/**
 * Checks a template once and prepares it for fast rendering.
 *
 * Throws {@link TemplateError} (with the error issues of `validateTemplate`)
 * when the template has errors; warnings do not stop it.
 *
 * @example
 * ```ts
 * const compiled = compileTemplate({
 *   id: 1, name: 'Member', formatVersion: 1, passType: 'pass.com.example.member',
 *   description: { generic: { primaryFields: [{ key: 'name', value: '${name}' }] } },
 *   placeholder: ['name'],
 * } as const);
 * compiled.render({ name: 'Ada' }); // { generic: { primaryFields: [{ key: 'name', value: 'Ada' }] } }
 * ```
 */
export function compileTemplate<const TTemplate extends PassTemplate>(
  template: TTemplate,
  options: CompileOptions = {},
): CompiledTemplate<PlaceholderNames<TTemplate>> {
  const { report, declared, scans } = analyzeTemplate(template);
  if (!report.ok) {
    throw new TemplateError(
      'Invalid template',
      report.issues.filter((issue) => issue.severity === 'error'),
    );
  }
  const plan = planBody(template.description as JsonValue, scans);
  const build: Builder = (options.codegen !== false ? generatePlan(plan) : undefined) ?? interpretPlan(plan.root);
  const declaredSet = new Set(declared);
  const strict = options.strict === true;
  const names = plan.names;
  const checked = (values: unknown): PassBody => build(resolveValues(names, values, declaredSet, strict)) as PassBody;
  // Strict renders look at every key of the values, which the fused path does not.
  const fused = strict ? undefined : (fusedRenderOf(plan, checked) as ((values: unknown) => PassBody) | undefined);
  const compiled: CompiledTemplate<PlaceholderNames<TTemplate>> = {
    template,
    placeholders: [...declaredSet] as PlaceholderNames<TTemplate>[],
    render: fused ?? checked,
  };
  registerPlan(compiled, plan);
  return compiled;
}

// One cache per combination of options, so an option is never lost to a cache hit.
const caches: readonly WeakMap<object, CompiledTemplate>[] = [new WeakMap(), new WeakMap(), new WeakMap(), new WeakMap()];

/**
 * Renders a template with one set of values: {@link compileTemplate}, cached
 * per template object, then `render`. Treat a template given here as frozen:
 * a change made to the same object later is not seen (compile it again).
 *
 * @example
 * ```ts
 * const body = renderTemplate(template, { name: 'Ada' });
 * ```
 */
export function renderTemplate<const TTemplate extends PassTemplate>(
  template: TTemplate,
  values: TemplateValues<PlaceholderNames<TTemplate>>,
  options: CompileOptions = {},
): PassBody {
  const store = caches[(options.strict === true ? 1 : 0) + (options.codegen === false ? 2 : 0)] as WeakMap<object, CompiledTemplate>;
  let compiled = store.get(template) as CompiledTemplate<PlaceholderNames<TTemplate>> | undefined;
  if (compiled === undefined) {
    compiled = compileTemplate(template, options);
    store.set(template, compiled as CompiledTemplate);
  }
  return compiled.render(values);
}
