import type { PassTemplate } from '../../types.js';
import type { ServiceContext } from './context.js';

/** A note in a template's answer: something that will not work, though the template is stored. */
export interface TemplateWarning {
  readonly severity: 'warning';
  readonly code: 'no-signing-identity';
  readonly message: string;
  readonly path: string;
}

/**
 * The warnings a stored template's answer carries: a `passType` the service
 * holds no signing identity for (its passes are made, but their downloads
 * and Wallet's fetches answer 409 `signing-not-configured` until one is
 * given). Empty when there is nothing to say.
 *
 * @example
 * ```ts
 * templateWarnings(context, template); // [{ code: 'no-signing-identity', path: '/passType', … }]
 * ```
 */
export function templateWarnings(context: Pick<ServiceContext, 'signer'>, template: PassTemplate): TemplateWarning[] {
  const signer = context.signer;
  if (signer !== undefined && signer.passTypeIdentifier === template.passType) return [];
  const message =
    signer === undefined
      ? `The service has no signing certificate: passes of "${template.passType}" are made, but cannot be downloaded signed until one is given (--cert, --key).`
      : `The service signs "${signer.passTypeIdentifier}", not "${template.passType}": passes of this template are made, but cannot be downloaded signed.`;
  return [{ severity: 'warning', code: 'no-signing-identity', message, path: '/passType' }];
}

/** The template as answered: its members, and `warnings` when there are any (never stored). */
export function templateAnswer(
  context: Pick<ServiceContext, 'signer'>,
  template: PassTemplate,
): PassTemplate | (PassTemplate & { warnings: TemplateWarning[] }) {
  const warnings = templateWarnings(context, template);
  return warnings.length === 0 ? template : { ...template, warnings };
}
