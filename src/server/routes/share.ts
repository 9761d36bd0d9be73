// One link for every phone: `/p/{share id}`, a public page that draws a pass
// (or a bundle's passes) and offers the wallet of the device it is opened
// on; the `.pkpass` / `.pkpasses` downloads and the Google save link behind
// its buttons; the template images it shows. Each is rate limited as the
// download link is (per address and per share id) and holds no token.
import { createHash } from 'node:crypto';
import { GoogleWalletError } from '../../google/error.js';
import { createSaveUrl } from '../../google/save-url.js';
import type { GoogleSavePayload } from '../../google/types.js';
import { ServiceProblem } from '../../http/problem.js';
import { packPasses } from '../../pkpass/pack-passes.js';
import { pkpassHeaders } from '../../pkpass/mime.js';
import { createEvent } from '../../webhooks/event.js';
import { findBundle, type BundleRecord } from '../db/bundles.js';
import { createTemplateAssets, type TemplateAssets } from '../db/google-assets.js';
import { googleImageBytes, isGoogleObjectSynced, recordGoogleObject } from '../db/google-objects.js';
import { queueGoogleObject } from '../db/google-sync.js';
import { findPass, type PassRecord } from '../db/passes.js';
import { importPeer } from '../db/pglite.js';
import { findPassByShare } from '../db/shares.js';
import type { SqlDatabase, SqlQueryable } from '../db/sql.js';
import { mapStoredPass, type ServiceGoogleMapping } from '../google/mapping.js';
import type { GoogleService } from '../google/service.js';
import { BytesResponse } from '../http/bytes-response.js';
import { baseUrl, type ServiceContext } from './context.js';
import { defineRoute, type Route } from './define.js';
import { bytesAnswer, emptyAnswer, problemAnswer, rateLimited } from './docs.js';
import { notFoundPage, renderSharePage, type ShareCard, type SharePage } from './share-page.js';
import { pickLanguage, shareDevice, shareWords } from './share-page-text.js';
import type { Services } from './services.js';

/** What a share id leads to: one pass, or a bundle's passes (those still there). */
type Shared =
  | { readonly kind: 'pass'; readonly passes: readonly PassRecord[] }
  | { readonly kind: 'bundle'; readonly bundle: BundleRecord; readonly passes: readonly PassRecord[] };

/** Every pass of a bundle, read one by one (at most 10). */
async function bundlePasses(db: SqlQueryable, bundle: BundleRecord): Promise<PassRecord[]> {
  const passes: PassRecord[] = [];
  for (const key of bundle.passes) {
    const pass = await findPass(db, key.passTypeIdentifier, key.serialNumber);
    if (pass !== undefined) passes.push(pass);
  }
  return passes;
}

/** What a share id leads to, or `undefined` (no such id, or a bundle whose passes are all gone). */
async function sharedOf(db: SqlQueryable, id: string): Promise<Shared | undefined> {
  const pass = await findPassByShare(db, id);
  if (pass !== undefined) return { kind: 'pass', passes: [pass] };
  const bundle = await findBundle(db, id);
  if (bundle === undefined) return undefined;
  const passes = await bundlePasses(db, bundle);
  return passes.length === 0 ? undefined : { kind: 'bundle', bundle, passes };
}

/** A pass's state as its page shows it: the service's, or what its pass.json says (voided, past its expirationDate). */
function stateOf(record: PassRecord, now = Date.now()): ShareCard['state'] {
  if (record.state === 'voided' || record.pass.voided === true) return 'voided';
  if (record.state === 'expired') return 'expired';
  const expires = typeof record.pass.expirationDate === 'string' ? Date.parse(record.pass.expirationDate) : Number.NaN;
  return !Number.isNaN(expires) && expires <= now ? 'expired' : 'active';
}

// The template assets reader of each database (cached per template version): the service's Google one when it has it.
const assetReaders = new WeakMap<SqlDatabase, (sql: SqlQueryable, templateId: number) => Promise<TemplateAssets | undefined>>();
function assetsOf(context: ServiceContext, templateId: number): Promise<TemplateAssets | undefined> {
  const google = context.google;
  if (google !== undefined) return google.assets(context.db, templateId);
  let reader = assetReaders.get(context.db);
  if (reader === undefined) {
    reader = createTemplateAssets();
    assetReaders.set(context.db, reader);
  }
  return reader(context.db, templateId);
}

/** The address of a template image (its sharpest variant), named by its content, or `undefined`. */
function imageAddress(assets: TemplateAssets, templateId: number, name: string): string | undefined {
  for (const variant of [`${name}@2x.png`, `${name}@3x.png`, `${name}.png`]) {
    const hash = assets.hashes.get(variant);
    if (hash !== undefined) return `/p/images/${templateId}/${hash}/${variant}`;
  }
  return undefined;
}

// bwip-js draws the QR code (an optional peer dependency: without it, computers get the buttons without one).
let qrEncoder: Promise<{ toSVG(options: { bcid: string; text: string; eclevel?: string }): string } | undefined> | undefined;
async function qrSvg(text: string): Promise<string | undefined> {
  qrEncoder ??= importPeer<{ toSVG(options: { bcid: string; text: string; eclevel?: string }): string }>('bwip-js').catch(() => undefined);
  const encoder = await qrEncoder;
  if (encoder === undefined) return undefined;
  try {
    return encoder.toSVG({ bcid: 'qrcode', text, eclevel: 'M' });
  } catch {
    return undefined;
  }
}

function htmlAnswer(page: SharePage, status = 200): Response {
  return new BytesResponse(page.html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': page.csp,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      vary: 'User-Agent, Accept-Language',
    },
  });
}

/** The share page of `shared` for this request. */
async function sharePage(request: Request, id: string, shared: Shared, context: ServiceContext): Promise<SharePage> {
  const origin = baseUrl(context, request);
  const cards: ShareCard[] = [];
  const languages = new Set<string>();
  const assets = new Map<number, TemplateAssets | undefined>();
  for (const record of shared.passes) {
    if (!assets.has(record.templateId)) assets.set(record.templateId, await assetsOf(context, record.templateId));
  }
  for (const found of assets.values()) for (const language of Object.keys(found?.strings ?? {})) languages.add(language);
  const passLanguage = pickLanguage(request.headers.get('accept-language'), [...languages]);
  const pageLanguage = passLanguage ?? pickLanguage(request.headers.get('accept-language'), ['en', 'de', 'fr', 'es']) ?? 'en';
  for (const record of shared.passes) {
    const found = assets.get(record.templateId);
    cards.push({
      pass: record.pass,
      state: stateOf(record),
      strings: passLanguage === undefined ? undefined : found?.strings[passLanguage],
      images:
        found === undefined
          ? {}
          : {
              logo: imageAddress(found, record.templateId, 'logo'),
              strip: imageAddress(found, record.templateId, 'strip'),
              thumbnail: imageAddress(found, record.templateId, 'thumbnail'),
              icon: imageAddress(found, record.templateId, 'icon'),
            },
    });
  }
  const device = shareDevice(request.headers.get('user-agent'));
  const pageUrl = `${origin}/p/${id}`;
  const logo = cards[0]?.images.logo;
  return renderSharePage({
    cards,
    language: pageLanguage,
    words: shareWords(pageLanguage),
    device,
    pageUrl,
    appleUrl: shared.kind === 'pass' ? `/p/${id}/pass.pkpass` : `/p/${id}/passes.pkpasses`,
    googleUrl: context.google === undefined ? undefined : `/p/${id}/google`,
    qrSvg: device.qr ? await qrSvg(pageUrl) : undefined,
    ogImage: logo === undefined ? undefined : `${origin}${logo}`,
  });
}

/**
 * The "Add to Google Wallet" link of one or more passes: classes and objects
 * in full when the JWT fits Google's 1,800 characters; otherwise the objects
 * by id alone, once the queue has sent them all (503 `google-not-ready` until then).
 */
async function saveLinkOf(google: GoogleService, context: ServiceContext, records: readonly PassRecord[]): Promise<string> {
  const { db } = context;
  const mapped: { record: PassRecord; google: ServiceGoogleMapping }[] = [];
  for (const record of records) {
    const assets = await google.assets(db, record.templateId);
    if (assets === undefined) continue;
    const one = mapStoredPass({ issuerId: google.issuerId, publicUrl: context.publicUrl }, record.templateId, record.pass, assets);
    // The object id is known from now on: a save callback about it names this pass.
    await recordGoogleObject(db, {
      passTypeIdentifier: record.passTypeIdentifier,
      serialNumber: record.serialNumber,
      objectId: one.objectId,
      classId: one.classId,
      resource: one.objectResource,
    });
    mapped.push({ record, google: one });
  }
  if (mapped.length === 0) throw new ServiceProblem(404, 'template-not-found', "The passes' templates are gone.");
  const classes = new Map(mapped.map(({ google: one }) => [one.classId, { type: one.type, class: one.class }]));
  try {
    return await createSaveUrl(google.credentials, {
      objects: mapped.map(({ google: one }) => ({ type: one.type, object: one.object })),
      classes: [...classes.values()],
    } as GoogleSavePayload);
  } catch (error) {
    if (!(error instanceof GoogleWalletError) || error.code !== 'save-link-too-long') throw error;
  }
  let waiting = false;
  for (const { record } of mapped) {
    if (await isGoogleObjectSynced(db, record.passTypeIdentifier, record.serialNumber)) continue;
    await queueGoogleObject(db, record.passTypeIdentifier, record.serialNumber);
    waiting = true;
  }
  if (waiting) {
    context.notify();
    throw new ServiceProblem(
      503,
      'google-not-ready',
      'The passes are too large for a link that carries them; they are being sent to Google first. Try again in a few seconds.',
      {
        headers: { 'retry-after': '5' },
      },
    );
  }
  return createSaveUrl(google.credentials, {
    objects: mapped.map(({ google: one }) => ({ type: one.type, object: { id: one.objectId, classId: one.classId } })),
  } as GoogleSavePayload);
}

/** The signed `.pkpass` of a pass reached through a share link, with its `pass.downloaded` (once per client in the repeat window). */
async function download(request: Request, record: PassRecord, services: Services): Promise<Uint8Array> {
  const { guard, pack, eventBatch } = services;
  const bytes = await pack(record);
  const client = `${guard.addressOf(request) ?? ''}\u0000share`;
  if (!guard.repeats.repeated(`${record.passTypeIdentifier}\u0000${record.serialNumber}\u0000${record.version}\u0000${client}`)) {
    eventBatch.add(createEvent('pass.downloaded', { serialNumber: record.serialNumber, passTypeIdentifier: record.passTypeIdentifier }));
  }
  return bytes;
}

/** A share link whose passes cannot be added any more: voided (for good), or expired (until reactivated). */
const goneProblem = (records: readonly PassRecord[]): ServiceProblem =>
  records.some((record) => stateOf(record) === 'expired')
    ? new ServiceProblem(410, 'pass-expired', 'The pass has expired: it cannot be added.')
    : new ServiceProblem(410, 'pass-voided', 'The pass has been voided: it can no longer be added.');

/** A file name from a serial number's safe characters. */
const fileName = (serialNumber: string): string => serialNumber.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64) || 'pass';

const notFoundProblem = (): ServiceProblem => new ServiceProblem(404, 'not-found', 'No such share link.');

/** The public share pages and what their buttons lead to. */
export const shareRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/p/{id}',
    auth: 'public',
    summary: 'The share page of a pass or a bundle',
    description:
      'Public HTML without JavaScript: the pass drawn (colors, logo, strip, fields), "Add to Apple Wallet" and, with Google Wallet, "Add to Google Wallet" — ' +
      "the device's wallet first (iPhone, iPad, Mac: Apple; Android: Google), and on computers a QR code of the page. " +
      "In the language of `Accept-Language` among the pass's `.lproj` strings. A voided or expired pass says so and offers nothing. Rate limited per address and per link.",
    responses: {
      200: { description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } },
      404: { description: 'No such share link (an HTML page).', content: { 'text/html': { schema: { type: 'string' } } } },
      429: rateLimited,
    },
    handler: async ({ request, params }, { context, db, guard }) => {
      guard.admit(request, params.id);
      const shared = await sharedOf(db, params.id);
      if (shared === undefined) {
        const language = pickLanguage(request.headers.get('accept-language'), ['en', 'de', 'fr', 'es']) ?? 'en';
        return htmlAnswer(notFoundPage(shareWords(language), language), 404);
      }
      return htmlAnswer(await sharePage(request, params.id, shared, context));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/p/{id}/pass.pkpass',
    auth: 'public',
    summary: "A share page's .pkpass",
    description: 'The signed pass of a share link (the "Add to Apple Wallet" button). Rate limited per address and per link.',
    responses: {
      200: bytesAnswer('application/vnd.apple.pkpass', 'The signed pass.'),
      404: problemAnswer('No such share link (`not-found`).'),
      409: problemAnswer('The service has no signing certificate (`signing-not-configured`).'),
      410: problemAnswer('The pass has been voided (`pass-voided`) or has expired (`pass-expired`).'),
      429: rateLimited,
    },
    handler: async ({ request, params }, services) => {
      services.guard.admit(request, params.id);
      const record = await findPassByShare(services.db, params.id);
      if (record === undefined) throw notFoundProblem();
      if (stateOf(record) !== 'active') throw goneProblem([record]);
      const bytes = await download(request, record, services);
      return new BytesResponse(bytes, { status: 200, headers: { ...pkpassHeaders(`${fileName(record.serialNumber)}.pkpass`), 'cache-control': 'no-store' } });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/p/{id}/passes.pkpasses',
    auth: 'public',
    summary: "A bundle's .pkpasses",
    description:
      "Every pass of a bundle's share link that can still be added, in one `.pkpasses` file (Wallet offers to add them all). Rate limited per address and per link.",
    responses: {
      200: bytesAnswer('application/vnd.apple.pkpasses', 'The signed passes.'),
      404: problemAnswer('No such bundle (`not-found`).'),
      409: problemAnswer('The service has no signing certificate (`signing-not-configured`).'),
      410: problemAnswer('Every pass of the bundle has been voided (`pass-voided`) or has expired (`pass-expired`).'),
      429: rateLimited,
    },
    handler: async ({ request, params }, services) => {
      services.guard.admit(request, params.id);
      const bundle = await findBundle(services.db, params.id);
      const passes = bundle === undefined ? [] : await bundlePasses(services.db, bundle);
      if (passes.length === 0) throw notFoundProblem();
      const addable = passes.filter((record) => stateOf(record) === 'active');
      if (addable.length === 0) throw goneProblem(passes);
      const files: (readonly [string, Uint8Array])[] = [];
      for (const [index, record] of addable.entries())
        files.push([`${index + 1}-${fileName(record.serialNumber)}.pkpass`, await download(request, record, services)]);
      return new BytesResponse(packPasses(files), { status: 200, headers: { ...pkpassHeaders('passes.pkpasses'), 'cache-control': 'no-store' } });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/p/{id}/google',
    auth: 'public',
    summary: "A share page's Google Wallet save link",
    description:
      'A 303 redirect to the "Add to Google Wallet" link of the pass, or of every pass of a bundle (one link). Rate limited per address and per link.',
    responses: {
      303: emptyAnswer('Redirect to the save link.'),
      404: problemAnswer('No such share link, or Google Wallet is not configured (`not-found`).'),
      410: problemAnswer('The pass (every pass of the bundle) has been voided (`pass-voided`) or has expired (`pass-expired`).'),
      429: rateLimited,
      503: problemAnswer(
        'The passes are too large for a link that carries them and are not at Google yet (`google-not-ready`); `Retry-After` says when to ask again.',
      ),
    },
    handler: async ({ request, params }, { context, db, guard }) => {
      guard.admit(request, params.id);
      const google = context.google;
      const shared = google === undefined ? undefined : await sharedOf(db, params.id);
      if (google === undefined || shared === undefined) throw notFoundProblem();
      const addable = shared.passes.filter((record) => stateOf(record) === 'active');
      if (addable.length === 0) throw goneProblem(shared.passes);
      const url = await saveLinkOf(google, context, addable);
      return new Response(null, { status: 303, headers: { location: url, 'cache-control': 'no-store' } });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/p/images/{template}/{hash}/{path+}',
    auth: 'public',
    summary: 'A template image, for share pages',
    description: 'A PNG of a template, at an address named by its SHA-256 (known only from a page that shows it). Rate limited per address.',
    responses: {
      200: bytesAnswer('image/png', 'The image; its address names its content.'),
      404: problemAnswer('No such image.'),
      429: rateLimited,
    },
    handler: async ({ request, params }, { context, db, guard }) => {
      guard.admit(request);
      const templateId = /^[1-9]\d{0,9}$/.test(params.template) && Number(params.template) <= 2_147_483_647 ? Number(params.template) : undefined;
      const { hash, path } = params;
      const assets = templateId === undefined || !path.toLowerCase().endsWith('.png') ? undefined : await assetsOf(context, templateId);
      // Known hashes first (cached per template version): a wrong address costs no file read.
      const bytes = templateId === undefined || assets?.hashes.get(path) !== hash ? undefined : await googleImageBytes(db, templateId, path);
      if (bytes === undefined || createHash('sha256').update(bytes).digest('hex') !== hash) {
        throw new ServiceProblem(404, 'file-not-found', 'No such image (a changed image has a new address).');
      }
      return new Response(bytes as Uint8Array<ArrayBuffer>, {
        status: 200,
        headers: {
          'content-type': 'image/png',
          'cache-control': 'public, max-age=31536000, immutable',
          etag: `"${hash}"`,
          'x-content-type-options': 'nosniff',
        },
      });
    },
  }),
];
