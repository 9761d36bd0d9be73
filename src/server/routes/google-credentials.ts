import { readGoogleCredentials } from '../../google/credentials.js';
import { GoogleWalletError } from '../../google/error.js';
import { ServiceProblem } from '../../http/problem.js';
import { SECRET_PURPOSE, sealingBox } from '../db/secrets.js';
import { deleteGoogleCredentials, findGoogleCredentials, putGoogleCredentials, type StoredGoogleCredentials } from '../db/secret-google.js';
import { isObject, readJson } from '../http/body.js';
import type { ServiceContext } from './context.js';
import { defineRoute, type Route } from './define.js';
import { emptyAnswer, jsonAnswer, jsonBody, problemAnswer } from './docs.js';
import { json, noContent } from './responses.js';
import { object, string } from './schemas.js';

const CREDENTIALS = object({
  issuerId: string('The issuer id from the Google Pay & Wallet Console.'),
  clientEmail: string("The service account's e-mail."),
  updated: string(undefined, { format: 'date-time' }),
  active: { type: 'boolean', description: 'Whether this process uses them now (an upload is used from the next start of each process).' },
});

function credentialsResource(context: ServiceContext, stored: StoredGoogleCredentials): Record<string, unknown> {
  const running = context.google;
  return {
    issuerId: stored.issuerId,
    clientEmail: stored.clientEmail,
    updated: stored.updated.toISOString(),
    active: running !== undefined && running.issuerId === stored.issuerId && running.credentials.clientEmail === stored.clientEmail,
  };
}

const invalid = (path: string, message: string): ServiceProblem =>
  new ServiceProblem(422, 'invalid-body', `${message}.`, { issues: [{ severity: 'error', code: 'invalid-value', message, path }] });

/** Google Wallet's credentials uploaded instead of given at start: the service account sealed at rest. Every call needs `admin`. */
export const googleCredentialRoutes: readonly Route[] = [
  defineRoute({
    method: 'POST',
    path: '/v1/google/credentials',
    auth: 'admin',
    summary: 'Upload Google Wallet credentials',
    description:
      "The issuer's service-account key (the JSON file Google gives, as an object or its text) and the issuer id. Stored with the key sealed under the service's secret key, never shown again; used instead of --google-credentials and --google-issuer-id from the next start of each process.",
    body: jsonBody(
      object({
        serviceAccount: { description: 'The service-account key file: its JSON object, or its text.', type: ['object', 'string'] },
        issuerId: string('The issuer id (digits).'),
      }),
    ),
    responses: {
      201: jsonAnswer(CREDENTIALS, 'Stored (never the key).'),
      409: problemAnswer('The service has no secret key to seal the key with (`secret-key-missing`).'),
      422: problemAnswer('Not a service-account key, or not an issuer id (`invalid-body`, with `issues`).'),
    },
    handler: async ({ request }, { context, db }) => {
      const box = sealingBox(context.secretBox, "the service account's key");
      const body = await readJson(request, context.maxBodyBytes);
      if (!isObject(body)) throw new ServiceProblem(422, 'invalid-body', 'Send { "serviceAccount": {…}, "issuerId": "…" }.');
      const { serviceAccount, issuerId } = body;
      if (typeof issuerId !== 'string' || !/^\d{1,30}$/.test(issuerId))
        throw invalid('/issuerId', "`issuerId` is the issuer's number from the Google Pay & Wallet Console");
      let text: string;
      let clientEmail: string;
      try {
        text = typeof serviceAccount === 'string' ? serviceAccount : JSON.stringify(serviceAccount);
        clientEmail = readGoogleCredentials(text).clientEmail;
      } catch (error) {
        if (error instanceof GoogleWalletError) throw invalid('/serviceAccount', error.message.replace(/\.$/, ''));
        throw error;
      }
      const stored = await putGoogleCredentials(db, { issuerId, clientEmail, sealedServiceAccount: box.seal(text, SECRET_PURPOSE.google) });
      return json(credentialsResource(context, stored), 201);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/google/credentials',
    auth: 'admin',
    summary: 'Read the uploaded Google Wallet credentials',
    responses: { 200: jsonAnswer(CREDENTIALS, 'The issuer id and account (never the key).'), 404: problemAnswer('None uploaded (`not-found`).') },
    handler: async (_call, { context, db }) => {
      const stored = await findGoogleCredentials(db);
      if (stored === undefined) throw new ServiceProblem(404, 'not-found', 'No Google credentials were uploaded.');
      return json(credentialsResource(context, stored));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/google/credentials',
    auth: 'admin',
    summary: 'Delete the uploaded Google Wallet credentials',
    description: 'From the next start the service uses --google-credentials and --google-issuer-id again, if given.',
    responses: { 204: emptyAnswer('Deleted.'), 404: problemAnswer('None uploaded (`not-found`).') },
    handler: async (_call, { db }) => {
      if (!(await deleteGoogleCredentials(db))) throw new ServiceProblem(404, 'not-found', 'No Google credentials were uploaded.');
      return noContent();
    },
  }),
];
