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
 * holds no signing identity for — no certificate uploaded for it
 * (`/v1/certificates`) and not the one given at start (its passes are made,
 * but their downloads and Wallet's fetches answer 409
 * `signing-not-configured` until one is uploaded). Empty when there is
 * nothing to say.
 *
 * @example
 * ```ts
 * templateWarnings(context, template); // [{ code: 'no-signing-identity', path: '/passType', … }]
 * ```
 */
export function templateWarnings(context: Pick<ServiceContext, 'signer' | 'signers'>, template: PassTemplate): TemplateWarning[] {
  if (context.signers.teamFor(template.passType) !== undefined) return [];
  const signer = context.signer;
  const message =
    signer === undefined
      ? `The service has no signing certificate for "${template.passType}": its passes are made, but cannot be downloaded signed until one is uploaded (POST /v1/certificates).`
      : `The service signs "${signer.passTypeIdentifier}", not "${template.passType}": passes of this template are made, but cannot be downloaded signed until a certificate for it is uploaded (POST /v1/certificates).`;
  return [{ severity: 'warning', code: 'no-signing-identity', message, path: '/passType' }];
}

/** The template as answered: its members, and `warnings` when there are any (never stored). */
export function templateAnswer(
  context: Pick<ServiceContext, 'signer' | 'signers'>,
  template: PassTemplate,
): PassTemplate | (PassTemplate & { warnings: TemplateWarning[] }) {
  const warnings = templateWarnings(context, template);
  return warnings.length === 0 ? template : { ...template, warnings };
}
