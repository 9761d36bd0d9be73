import { createHash } from 'node:crypto';
import { verifyGoogleCallback } from '../../google/callback.js';
import { GoogleWalletError } from '../../google/error.js';
import { createSaveUrl } from '../../google/save-url.js';
import type { GoogleCallbackReason } from '../../google/types.js';
import { sameToken } from '../../wallet/apple-pass-auth.js';
import { createEvent } from '../../webhooks/event.js';
import { readBody } from '../http/body.js';
import { GOOGLE_CALLBACK_PATH, mapStoredPass, type ServiceGoogleMapping } from '../google/mapping.js';
import { firstNonce } from '../db/google-nonces.js';
import { queueGoogleObject } from '../db/google-sync.js';
import type { GoogleService } from '../google/service.js';
import { type Kit, json } from './kit.js';
import { addEvents } from '../db/outbox.js';
import { ServiceProblem } from '../http/problem.js';
import type { Route } from '../http/router.js';
import * as store from '../db/store.js';

/** A callback is a few hundred bytes; anything much larger is not Google's. */
const MAX_CALLBACK_BYTES = 64 * 1024;

/** Reasons that say the callback is not Google's (401), rather than not even shaped like one (400). */
const NOT_AUTHENTIC: ReadonlySet<GoogleCallbackReason> = new Set([
  'no-root-key',
  'intermediate-signature-invalid',
  'intermediate-expired',
  'signature-invalid',
  'message-expired',
]);

/**
 * Google Wallet: the save link of a pass, Google's save/delete callbacks,
 * and the template images Google fetches. Without Google configured the
 * link answers 409 `google-not-configured` and the callback 404.
 */
export function googleRoutes(kit: Kit, google: GoogleService | undefined): Route[] {
  const { context, db, passOf } = kit;
  const configured = (): GoogleService => {
    if (google === undefined) {
      throw new ServiceProblem(409, 'google-not-configured', 'The service has no Google Wallet issuer (start it with --google-credentials and --google-issuer-id).');
    }
    return google;
  };
  return [
    {
      pattern: '/v1/passes/:type/:serial/google',
      methods: {
        GET: async ({ request, params, url }) => {
          const token = url.searchParams.get('token');
          // A link opened by anyone: the same rates per address and per token as the .pkpass link.
          if (token !== null) kit.guard.admit(request, token);
          const record = await store.findPass(db, params[0]!, params[1]!);
          // As for the .pkpass link: the pass's own token opens it (a link for the holder), or the API key.
          const byToken = token !== null && record?.pass.authenticationToken !== undefined && (await sameToken(token, record.pass.authenticationToken));
          if (!byToken && !(await context.authenticate(request))) {
            throw new ServiceProblem(401, token === null ? 'missing-credentials' : 'invalid-credentials', 'Send an API key, or open the pass\'s own link.', {
              headers: { 'www-authenticate': 'Bearer' },
            });
          }
          const service = configured();
          const pass = record ?? (await passOf(params[0]!, params[1]!));
          const assets = await service.assets(db, pass.templateId);
          if (assets === undefined) throw new ServiceProblem(404, 'template-not-found', 'The pass\'s template is gone.');
          const mapped = mapStoredPass({ issuerId: service.issuerId, publicUrl: context.publicUrl }, pass.templateId, pass.pass, assets);
          // The object id is known from now on: a save callback about it names this pass.
          await db.query(
            `insert into passmint_google_objects (pass_type_identifier, serial_number, object_id, class_id, resource)
             values ($1, $2, $3, $4, $5) on conflict do nothing`,
            [pass.passTypeIdentifier, pass.serialNumber, mapped.objectId, mapped.classId, mapped.objectResource],
          );
          const saveUrl = await saveLink(service, db, pass, mapped, context.notify);
          if (byToken) return new Response(null, { status: 303, headers: { location: saveUrl, 'cache-control': 'no-store' } });
          return json({ url: saveUrl, type: mapped.type, classId: mapped.classId, objectId: mapped.objectId, losses: mapped.losses }, 200, { 'cache-control': 'no-store' });
        },
      },
      public: ['GET'],
    },
    {
      pattern: GOOGLE_CALLBACK_PATH,
      methods: {
        POST: async ({ request }) => {
          if (google === undefined) throw new ServiceProblem(404, 'not-found', 'No such route; the API lives under /v1/.');
          const text = new TextDecoder().decode(await readBody(request, MAX_CALLBACK_BYTES));
          const rootKeys = await google.rootKeys();
          if (rootKeys === undefined) {
            throw new ServiceProblem(503, 'google-keys-unavailable', 'Google\'s callback signing keys could not be fetched; Google will try again.', { headers: { 'retry-after': '60' } });
          }
          const result = await verifyGoogleCallback(text, { issuerId: google.issuerId, rootKeys });
          if (!result.ok) {
            const status = NOT_AUTHENTIC.has(result.reason) ? 401 : 400;
            throw new ServiceProblem(status, 'invalid-callback', `The callback was refused: ${result.reason}.`);
          }
          const { message } = result;
          let added = false;
          await db.transaction(async (tx) => {
            // A repeat (Google delivers at least once) is acknowledged and dropped.
            if (!(await firstNonce(tx, message.nonce, message.expTimeMillis))) return;
            const rows = await tx.query<{ pass_type_identifier: string; serial_number: string }>(
              'select pass_type_identifier, serial_number from passmint_google_objects where object_id = $1',
              [message.objectId],
            );
            // An object this service never issued: nothing to tell.
            if (rows[0] === undefined) return;
            const type = message.eventType === 'save' ? 'registration.created' : 'registration.deleted';
            const data = { serialNumber: rows[0].serial_number, passTypeIdentifier: rows[0].pass_type_identifier, wallet: 'google', objectId: message.objectId };
            await addEvents(tx, [createEvent(type, data)]);
            added = true;
          });
          if (added) context.notify();
          return new Response(null, { status: 200 });
        },
      },
      public: ['POST'],
    },
    {
      pattern: '/google/images/:template/:hash/*',
      methods: {
        GET: async ({ request, params }) => {
          // Anyone may fetch (each hit reads up to 4 MiB from the database): the address's rate, as on the other public routes.
          kit.guard.admit(request);
          const templateId = /^[1-9]\d{0,9}$/.test(params[0]!) ? Number(params[0]) : undefined;
          const hash = params[1]!;
          const path = params.slice(2).join('/');
          // Known hashes first (cached per template version): a wrong address costs no file read.
          // Images only (what Google fetches), not the template's other files.
          const image = path.toLowerCase().endsWith('.png');
          const assets = google === undefined || !image || templateId === undefined || templateId > 2_147_483_647 ? undefined : await google.assets(db, templateId);
          const rows =
            assets?.hashes.get(path) !== hash
              ? []
              : await db.query<{ bytes: Uint8Array }>('select bytes from passmint_template_files where template_id = $1 and path = $2', [templateId, path]);
          // The file may have changed since its hash was read: serve only what the address names.
          if (rows[0] === undefined || createHash('sha256').update(rows[0].bytes).digest('hex') !== hash) {
            throw new ServiceProblem(404, 'file-not-found', 'No such image (a changed image has a new address).');
          }
          // The address names the content: it never changes meaning, so it may be cached for good.
          return new Response(rows[0].bytes as Uint8Array<ArrayBuffer>, {
            status: 200,
            headers: {
              'content-type': 'image/png',
              'cache-control': 'public, max-age=31536000, immutable',
              etag: `"${hash}"`,
            },
          });
        },
      },
      public: ['GET'],
    },
  ];
}

/**
 * The "Add to Google Wallet" link: the class and object in full when the
 * JWT fits Google's 1,800 characters; otherwise the object by id alone,
 * once the queue has inserted it (503 until then).
 */
async function saveLink(
  google: GoogleService,
  db: Kit['db'],
  pass: store.PassRecord,
  mapped: ServiceGoogleMapping,
  notify: () => void,
): Promise<string> {
  try {
    return await createSaveUrl(google.credentials, { objects: [{ type: mapped.type, object: mapped.object }], classes: [{ type: mapped.type, class: mapped.class }] });
  } catch (error) {
    if (!(error instanceof GoogleWalletError) || error.code !== 'save-link-too-long') throw error;
  }
  const synced = await db.query('select 1 from passmint_google_objects where pass_type_identifier = $1 and serial_number = $2 and synced_at is not null', [
    pass.passTypeIdentifier,
    pass.serialNumber,
  ]);
  if (synced.length === 0) {
    // Owed already when the pass was made or changed; queued again for a pass made before Google was set up.
    await queueGoogleObject(db, pass.passTypeIdentifier, pass.serialNumber);
    notify();
    throw new ServiceProblem(503, 'google-not-ready', 'The pass is too large for a link that carries it; it is being sent to Google first. Try again in a few seconds.', {
      headers: { 'retry-after': '5' },
    });
  }
  return createSaveUrl(google.credentials, { objects: [{ type: mapped.type, object: { id: mapped.objectId, classId: mapped.classId } }] });
}
