// Bundles: several passes of one order behind one share page, one
// `.pkpasses` download and one Google save link (`POST /v1/bundles`).
import { ServiceProblem } from '../../http/problem.js';
import { MAX_PASSES } from '../../pkpass/pack-passes.js';
import { insertBundle, type BundlePass, type BundleRecord } from '../db/bundles.js';
import { findPass } from '../db/passes.js';
import { isObject, readJson } from '../http/body.js';
import { baseUrl, type ServiceContext } from './context.js';
import { defineRoute, type Route } from './define.js';
import { jsonAnswer, jsonBody, location, problemAnswer } from './docs.js';
import { ref } from './schemas.js';
import { json } from './responses.js';

const invalid = (detail: string): ServiceProblem => new ServiceProblem(422, 'invalid-body', detail);

/** The body's passes: 1 to 10 distinct `{ passTypeIdentifier, serialNumber }`. */
function bundleInput(body: unknown): BundlePass[] {
  if (!isObject(body) || !Array.isArray(body['passes'])) throw invalid('A bundle is { "passes": [{ "passTypeIdentifier": …, "serialNumber": … }, …] }.');
  for (const name of Object.keys(body)) if (name !== 'passes') throw invalid(`/${name}: unknown member (a bundle has passes).`);
  const list: unknown[] = body['passes'];
  if (list.length < 1 || list.length > MAX_PASSES) throw invalid(`/passes: 1 to ${MAX_PASSES} passes (Wallet adds at most ${MAX_PASSES} at once).`);
  const seen = new Set<string>();
  return list.map((item, index) => {
    if (!isObject(item)) throw invalid(`/passes/${index}: { "passTypeIdentifier": …, "serialNumber": … }.`);
    const { passTypeIdentifier, serialNumber } = item;
    // No NUL: PostgreSQL's text holds none, so no pass has one.
    if (typeof passTypeIdentifier !== 'string' || passTypeIdentifier === '' || passTypeIdentifier.length > 255 || passTypeIdentifier.includes('\u0000')) {
      throw invalid(`/passes/${index}/passTypeIdentifier: a pass type identifier is required.`);
    }
    if (typeof serialNumber !== 'string' || serialNumber === '' || serialNumber.length > 255 || serialNumber.includes('\u0000'))
      throw invalid(`/passes/${index}/serialNumber: a serial number is required.`);
    const key = `${passTypeIdentifier}\u0000${serialNumber}`;
    if (seen.has(key)) throw invalid(`/passes/${index}: the same pass is given twice.`);
    seen.add(key);
    return { passTypeIdentifier, serialNumber };
  });
}

/**
 * A bundle as the API shows it.
 *
 * @example
 * ```ts
 * bundleResource(context, request, bundle).links.share; // 'https://passes.example.com/p/V27t9Fkh3Yx7WquSPcuk4g'
 * ```
 */
function bundleResource(context: ServiceContext, request: Request, bundle: BundleRecord): Record<string, unknown> {
  const page = `${baseUrl(context, request)}/p/${bundle.shareId}`;
  return {
    id: bundle.shareId,
    passes: bundle.passes,
    links: { share: page, pkpasses: `${page}/passes.pkpasses`, ...(context.google === undefined ? {} : { google: `${page}/google` }) },
    created: bundle.created.toISOString(),
  };
}

/** Bundles of passes. */
export const bundleRoutes: readonly Route[] = [
  defineRoute({
    method: 'POST',
    path: '/v1/bundles',
    auth: 'passes',
    summary: 'Bundle passes behind one link',
    description:
      "Up to 10 passes (an order's tickets): one share page that shows them all, one `.pkpasses` download (Apple Wallet adds them all at once) and, with Google Wallet, one save link carrying every object. The links open without an API key.",
    body: jsonBody(ref('BundleRequest')),
    responses: {
      201: jsonAnswer(ref('Bundle'), 'The bundle and its links.', location),
      422: problemAnswer('Not 1 to 10 distinct passes, or a pass that does not exist (`invalid-body`, naming it).'),
    },
    handler: async ({ request }, { context, db }) => {
      const passes = bundleInput(await readJson(request, context.maxBodyBytes));
      for (const [index, pass] of passes.entries()) {
        if ((await findPass(db, pass.passTypeIdentifier, pass.serialNumber)) === undefined) {
          throw invalid(`/passes/${index}: no pass ${JSON.stringify(pass.serialNumber)} of type ${JSON.stringify(pass.passTypeIdentifier)} exists.`);
        }
      }
      const bundle = await insertBundle(db, passes);
      const resource = bundleResource(context, request, bundle);
      return json(resource, 201, { location: String((resource['links'] as { share: string }).share) });
    },
  }),
];
