import type { Plan } from './plan.js';

// The plan each compiled template renders, for buildPass's validation (see
// src/rules/sites.ts, src/pass/site-checks.ts). Module-private to the library: not exported by
// the package, so the public CompiledTemplate stays as it is.
const plans = new WeakMap<object, Plan>();

/** Remembers the plan `compiled` renders. */
export function registerPlan(compiled: object, plan: Plan): void {
  plans.set(compiled, plan);
}

/** The plan `compiled` renders, when it came from `compileTemplate`. */
export function planOf(compiled: object): Plan | undefined {
  return plans.get(compiled);
}
