import { PackError } from '../../pkpass/pack-error.js';
import { packPass } from '../../pkpass/pack.js';
import type { PassSigner } from '../../pkpass/signer.js';
import type { PassBuilder } from '../build/pass-builder.js';
import { createPkpassCache, signerId } from '../build/pkpass-cache.js';
import type { SqlQueryable } from '../db/sql.js';
import type { PassRecord } from '../db/passes.js';
import { findTemplate, type TemplateRecord } from '../db/templates.js';
import { ServiceProblem } from '../../http/problem.js';
import { filesFor } from '../wallet/personalize.js';
import type { TemplateCache } from './template-cache.js';

/** What {@link createPacker} needs. */
export interface PackerOptions {
  readonly db: SqlQueryable;
  /** The signer of a pass type (the certificate uploaded for it, else the one given at start). */
  readonly signerFor: (passTypeIdentifier: string) => Promise<PassSigner | undefined>;
  readonly builder: PassBuilder;
  readonly templates: TemplateCache;
  /** The most bytes of signed packages held in memory. */
  readonly cacheBytes: number;
}

/**
 * The service's `.pkpass` maker: a pass signed once per pass version,
 * template version and signer, then served from memory. 409
 * `signing-not-configured` without a signer, 422 `cannot-pack` when the pass
 * cannot be packed.
 *
 * @example
 * ```ts
 * const pack = createPacker({ db, signerFor: signers.signerFor, builder, templates, cacheBytes: 64 << 20 });
 * const bytes = await pack(record);
 * ```
 */
export function createPacker(options: PackerOptions): (record: PassRecord) => Promise<Uint8Array> {
  const { db, signerFor, builder, templates } = options;
  const pkpasses = createPkpassCache(options.cacheBytes);
  return async (record) => {
    // 503 certificate-expired when the pass type's certificate has expired.
    const signer = await signerFor(record.passTypeIdentifier);
    if (signer === undefined) {
      throw new ServiceProblem(
        409,
        'signing-not-configured',
        `The service has no signing certificate for "${record.passTypeIdentifier}" (upload one: POST /v1/certificates, or start it with --cert, --key and --wwdr).`,
      );
    }
    const readTemplate = async (): Promise<TemplateRecord> => {
      const template = await findTemplate(db, record.templateId);
      if (template === undefined) throw new ServiceProblem(404, 'template-not-found', "The pass's template is gone.");
      return templates.hold(template);
    };
    // The pass's row carries its template's version (read with it): a cached package costs no second query.
    const known = record.templateVersion === undefined ? await readTemplate() : undefined;
    // Signed once per pass version, template version (its files) and signer; a pass deleted and made
    // again under its serial starts at version 1 again, so its creation time is part of the version.
    const version = `${record.created.getTime()}.${record.version}:${known?.version ?? record.templateVersion}:${signerId(signer)}`;
    return pkpasses.get(`${record.passTypeIdentifier}\u0000${record.serialNumber}`, version, async () => {
      // Packed from the template at the version the pass's row named: the copy in memory when it is that one.
      const held = templates.held(record.templateId);
      const template = known ?? (held !== undefined && held.version === record.templateVersion ? held : await readTemplate());
      try {
        return await packPass(record.pass, filesFor(record.values, await builder.files(template)), signer, {
          allowHttp: record.pass.webServiceURL?.startsWith('http:') === true,
        });
      } catch (error) {
        if (error instanceof PackError) throw new ServiceProblem(422, 'cannot-pack', error.message, { issues: error.issues });
        throw error;
      }
    });
  };
}
