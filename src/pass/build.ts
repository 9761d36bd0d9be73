import { PassValidationError } from '../errors.js';
import type { Issue } from '../issues.js';
import { hasPlaceholderSyntax } from '../placeholder/scan.js';
import { compileTemplate, type CompiledTemplate, type PlaceholderNames } from '../template/compile.js';
import { planOf } from '../template/registry.js';
import type { Pass, PassIssuer, PassTemplate, TemplateValues } from '../types.js';
import { toRgbColor } from '../rules/color.js';
import { MIN_TOKEN_LENGTH, passKeysAreValid } from '../rules/identity.js';
import { checkPassBody, PASS_BODY_SITES, PASS_LEVEL_KEYS } from '../rules/pass-body.js';
import { passesSiteChecks, type SiteCheck, siteChecks, skeletonOf } from './site-checks.js';
import { validatePass, type ValidatePassOptions } from './validate.js';

/** Options of {@link buildPass}. */
export interface BuildPassOptions {
  /** Check the result with `validatePass` and throw on errors (default `true`). */
  readonly validate?: boolean;
  /** `'rgb'` (default) writes colors as `rgb(r, g, b)`; `'keep'` leaves them as written. */
  readonly colors?: 'rgb' | 'keep';
  /** Passed to `validatePass`: an `http://` webServiceURL is a warning, not an error. */
  readonly allowHttp?: boolean;
  /** Passed to the compiler when a template (not a compiled one) is given. */
  readonly strict?: boolean;
}

const COLOR_KEYS = ['foregroundColor', 'backgroundColor', 'labelColor'] as const;

const compiledFor = new WeakMap<object, CompiledTemplate>();

/**
 * Renders a template and adds what the issuer owns: `serialNumber` and
 * `authenticationToken` (random UUIDs unless given), `passTypeIdentifier` and
 * `formatVersion` from the template, `description` (the pass's text; the
 * template's `name` unless given), `organizationName`, `teamIdentifier`,
 * `webServiceURL`. Colors are written as `rgb(r, g, b)`. The result is checked
 * with `validatePass`.
 *
 * Throws `RenderError` for bad values and {@link PassValidationError} for a pass
 * Wallet would refuse.
 *
 * @example
 * ```ts
 * const pass = buildPass(template, { name: 'Ada' }, {
 *   teamIdentifier: 'A93A5CM278',
 *   organizationName: 'Example Events',
 *   webServiceURL: 'https://passes.example.com/',
 * });
 * pass.serialNumber; // a random UUID
 * ```
 */
export function buildPass<const TTemplate extends PassTemplate>(
  template: TTemplate,
  values: TemplateValues<PlaceholderNames<TTemplate>>,
  issuer: PassIssuer,
  options?: BuildPassOptions,
): Pass;
/**
 * {@link buildPass} from a template compiled once with `compileTemplate`, for a
 * service that builds many passes from one template.
 *
 * @example
 * ```ts
 * const compiled = compileTemplate(template);
 * const pass = buildPass(compiled, { name: 'Ada' }, issuer);
 * ```
 */
export function buildPass<TName extends string>(
  compiled: CompiledTemplate<TName>,
  values: TemplateValues<TName>,
  issuer: PassIssuer,
  options?: BuildPassOptions,
): Pass;
export function buildPass(template: PassTemplate | CompiledTemplate, values: TemplateValues, issuer: PassIssuer, options: BuildPassOptions = {}): Pass {
  const compiled = compiledOf(template, options);
  const plan = issuerPlanOf(compiled);
  checkIssuer(issuer);
  const pass = compiled.render(values) as Pass & Record<string, unknown>;

  // `delete` only when needed: it would turn the object into a slow dictionary.
  for (const key of plan.strip) delete pass[key];
  if (options.colors !== 'keep') {
    for (const key of plan.colors) {
      const color = pass[key];
      if (typeof color === 'string') pass[key] = toRgbColor(color);
    }
  }
  pass.serialNumber = issuer.serialNumber ?? crypto.randomUUID();
  pass.passTypeIdentifier = plan.passTypeIdentifier;
  pass.formatVersion = plan.formatVersion;
  pass.description = issuer.description ?? plan.name;
  pass.organizationName = issuer.organizationName;
  pass.teamIdentifier = issuer.teamIdentifier;
  if (issuer.webServiceURL !== undefined) {
    pass.authenticationToken = issuer.authenticationToken ?? crypto.randomUUID();
    pass.webServiceURL = issuer.webServiceURL;
  }

  if (options.validate !== false) {
    const allowHttp = options.allowHttp === true;
    // The fast path proves there is no error (see IssuerPlan.checks); when it
    // cannot, validatePass decides, and its issues are the ones thrown.
    if (plan.checks === undefined || !passesSiteChecks(pass, plan.checks) || !passKeysAreValid(pass, allowHttp)) {
      const report = validatePass(pass, allowHttp ? ALLOW_HTTP : STRICT);
      if (!report.ok) throw new PassValidationError('The pass would be refused by Wallet', report.issues);
    }
  }
  return pass;
}

const ALLOW_HTTP: ValidatePassOptions = { allowHttp: true };
const STRICT: ValidatePassOptions = {};

/** What buildPass needs of a compiled template, worked out once per template. */
interface IssuerPlan {
  readonly passTypeIdentifier: string;
  readonly formatVersion: 1;
  readonly name: string;
  /** Issuer-owned keys the body itself holds (they are replaced). */
  readonly strip: readonly string[];
  /** The color keys the body holds. */
  readonly colors: readonly string[];
  /**
   * What to test of a rendered pass for `validatePass` to certainly find no
   * error in it, besides its pass-level keys: the body's static parts hold
   * none (checked here once, as the template checks do), and every rule that
   * reads a placeholder-bearing part accepts what the tests accept (see
   * src/rules/sites.ts). `undefined`: no such tests; every pass is validated in full.
   */
  readonly checks: readonly SiteCheck[] | undefined;
}

const issuerPlans = new WeakMap<CompiledTemplate, IssuerPlan>();

function issuerPlanOf(compiled: CompiledTemplate): IssuerPlan {
  let plan = issuerPlans.get(compiled);
  if (plan === undefined) {
    const { passType, formatVersion, name, description } = compiled.template;
    const rendered = planOf(compiled)?.root;
    // A body's top-level keys are never placeholders, so the plan's (or the template's) keys are the rendered body's.
    const keys = rendered?.kind === 'object' ? rendered.keys : Object.keys(description);
    plan = {
      passTypeIdentifier: passType,
      formatVersion,
      name,
      strip: PASS_LEVEL_KEYS.filter((key) => keys.includes(key)),
      colors: COLOR_KEYS.filter((key) => keys.includes(key)),
      checks:
        rendered === undefined || checkPassBody(skeletonOf(rendered), '', hasPlaceholderSyntax).some((issue) => issue.severity === 'error')
          ? undefined
          : siteChecks(rendered, PASS_BODY_SITES),
    };
    issuerPlans.set(compiled, plan);
  }
  return plan;
}

function compiledOf(template: PassTemplate | CompiledTemplate, options: BuildPassOptions): CompiledTemplate {
  if (isCompiled(template)) return template;
  const store = options.strict === true ? undefined : compiledFor;
  let compiled = store?.get(template);
  if (compiled === undefined) {
    compiled = compileTemplate(template, options.strict === true ? { strict: true } : {});
    store?.set(template, compiled);
  }
  return compiled;
}

function isCompiled(template: PassTemplate | CompiledTemplate): template is CompiledTemplate {
  return typeof (template as Partial<CompiledTemplate>).render === 'function';
}

// Issuer mistakes are the caller's: they throw even with `validate: false`.
function checkIssuer(issuer: PassIssuer): void {
  if (isWellFormed(issuer)) return;
  const issues: Issue[] = [];
  const input = (typeof issuer === 'object' && issuer !== null ? issuer : {}) as Record<string, unknown>;
  for (const key of ['teamIdentifier', 'organizationName'] as const) {
    if (typeof input[key] !== 'string') issues.push(issuerIssue(key, `issuer.${key} must be a string`));
  }
  for (const key of ['webServiceURL', 'serialNumber', 'authenticationToken', 'description'] as const) {
    if (input[key] !== undefined && typeof input[key] !== 'string') {
      issues.push(issuerIssue(key, `issuer.${key} must be a string when given`));
    }
  }
  const token = input['authenticationToken'];
  if (typeof token === 'string' && token.length < MIN_TOKEN_LENGTH) {
    issues.push({
      severity: 'error',
      code: 'short-authentication-token',
      message: `authenticationToken must be at least ${MIN_TOKEN_LENGTH} characters, got ${token.length}`,
      path: '/authenticationToken',
    });
  }
  if (issues.length > 0) throw new PassValidationError('Invalid issuer', issues);
}

function isWellFormed(issuer: PassIssuer): boolean {
  if (typeof issuer !== 'object' || issuer === null) return false;
  const { teamIdentifier, organizationName, webServiceURL, serialNumber, authenticationToken, description } = issuer;
  return (
    typeof teamIdentifier === 'string' &&
    typeof organizationName === 'string' &&
    (webServiceURL === undefined || typeof webServiceURL === 'string') &&
    (serialNumber === undefined || typeof serialNumber === 'string') &&
    (description === undefined || typeof description === 'string') &&
    (authenticationToken === undefined || (typeof authenticationToken === 'string' && authenticationToken.length >= MIN_TOKEN_LENGTH))
  );
}

function issuerIssue(key: string, message: string): Issue {
  return { severity: 'error', code: 'invalid-issuer', message, path: `/${key}` };
}
