// A local HTTP/2 TLS server standing in for APNs (which cannot run here),
// following Apple's documented protocol: POST /3/device/<token>, a client
// certificate or an ES256 provider token, `apns-topic`, answers with a status
// and a JSON `reason`. It records every push it receives.
import { verify, type X509Certificate } from 'node:crypto';
import { createSecureServer, type Http2ServerRequest, type IncomingHttpHeaders, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { KEY_IDENTIFIER, TEAM_IDENTIFIER, type ApnsPki } from './pki.js';

/** One push as the stand-in received it. */
export interface ReceivedPush {
  readonly method: string;
  readonly path: string;
  readonly pushToken: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The client certificate's subject UID when a trusted one was presented. */
  readonly certificateUid: string | undefined;
  /** The provider token's claims when a valid one was sent. */
  readonly token: { readonly kid: string; readonly iss: string; readonly iat: number; readonly raw: string } | undefined;
}

/** What the stand-in answers a push with. */
export interface Answer {
  readonly status: number;
  readonly reason?: string;
  readonly headers?: Record<string, string>;
  /** Never answer (for timeouts). */
  readonly hang?: boolean;
}

export interface StandIn {
  readonly origin: string;
  readonly pushes: ReceivedPush[];
  /** TLS sessions opened by clients so far. */
  readonly sessions: () => number;
  /** Most streams in flight at once. */
  readonly maxInFlight: () => number;
  /** Ends every open client session (as APNs does with GOAWAY). */
  dropSessions(): void;
  close(): Promise<void>;
}

export interface StandInOptions {
  /** Decides the answer after the checks APNs makes; default 200. */
  readonly answer?: (push: ReceivedPush) => Answer | Promise<Answer>;
  /** Holds each answer this long, so pushes overlap (default 0). */
  readonly holdMs?: number;
  /** Provider tokens issued before this (seconds) are expired (`ExpiredProviderToken`). */
  readonly tokensValidFrom?: number;
}

export async function startApnsStandIn(pki: ApnsPki, options: StandInOptions = {}): Promise<StandIn> {
  const pushes: ReceivedPush[] = [];
  const open = new Set<ServerHttp2Session>();
  let sessions = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createSecureServer({
    key: pki.serverKeyPem,
    cert: pki.serverCertPem,
    ca: [pki.caPem],
    // Ask every client for a certificate; token-authenticated clients have none,
    // so an untrusted or missing one is judged per request, as APNs does.
    requestCert: true,
    rejectUnauthorized: false,
  });
  server.on('session', (session) => {
    sessions++;
    open.add(session);
    session.on('close', () => open.delete(session));
  });

  server.on('request', (request: Http2ServerRequest, response) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const socket = request.socket as TLSSocket;
        const path = request.url;
        const match = /^\/3\/device\/([^/]+)$/.exec(path);
        const peer = socket.authorized ? socket.getPeerX509Certificate() : undefined;
        const push: ReceivedPush = {
          method: request.method,
          path,
          pushToken: match?.[1] ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          certificateUid: peer === undefined ? undefined : uidOf(peer),
          token: readToken(request.headers['authorization'], pki.tokenPublicPem),
        };
        pushes.push(push);
        const answer = checkLikeApns(push, request.headers, options.tokensValidFrom) ?? (await (options.answer?.(push) ?? { status: 200 }));
        if (answer.hang === true) return;
        if (options.holdMs) await new Promise((resolve) => setTimeout(resolve, options.holdMs));
        inFlight--;
        const body = answer.reason === undefined ? '' : JSON.stringify({ reason: answer.reason });
        response.writeHead(answer.status, { 'apns-id': '8c1c6b3f-6a7d-4d7e-9b7a-0c2f4b1d9e10', ...answer.headers });
        response.end(body);
      })();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    pushes,
    sessions: () => sessions,
    maxInFlight: () => maxInFlight,
    dropSessions: () => {
      for (const session of open) session.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of open) session.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The errors APNs gives before looking at the device token (Apple's table). */
function checkLikeApns(push: ReceivedPush, headers: IncomingHttpHeaders, tokensValidFrom: number | undefined): Answer | undefined {
  if (push.method !== 'POST') return { status: 405, reason: 'MethodNotAllowed' };
  if (push.pushToken === '') return { status: 404, reason: 'BadPath' };
  const topic = headers['apns-topic'];
  if (typeof topic !== 'string') return { status: 400, reason: 'MissingTopic' };
  if (headers['authorization'] !== undefined) {
    if (push.token === undefined) return { status: 403, reason: 'InvalidProviderToken' };
    if (tokensValidFrom !== undefined && push.token.iat < tokensValidFrom) return { status: 403, reason: 'ExpiredProviderToken' };
  } else if (push.certificateUid === undefined) {
    return { status: 403, reason: 'MissingProviderToken' };
  } else if (push.certificateUid !== topic) {
    return { status: 400, reason: 'TopicDisallowed' };
  }
  if (push.body === '') return { status: 400, reason: 'PayloadEmpty' };
  return undefined;
}

function uidOf(certificate: X509Certificate): string | undefined {
  // subject lines look like "UID=pass.com.example.member\nCN=…"
  const line = certificate.subject.split('\n').find((entry) => entry.startsWith('UID='));
  return line?.slice(4);
}

function readToken(authorization: string | undefined, publicPem: string): ReceivedPush['token'] {
  if (authorization === undefined || !authorization.startsWith('bearer ')) return undefined;
  const raw = authorization.slice(7);
  const [header, claims, signature] = raw.split('.');
  if (header === undefined || claims === undefined || signature === undefined) return undefined;
  const valid = verify('sha256', Buffer.from(`${header}.${claims}`), { key: publicPem, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!valid) return undefined;
  const head = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string; kid?: string };
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { iss?: string; iat?: number };
  if (head.alg !== 'ES256' || head.kid !== KEY_IDENTIFIER || body.iss !== TEAM_IDENTIFIER || typeof body.iat !== 'number') return undefined;
  return { kid: head.kid, iss: body.iss, iat: body.iat, raw };
}
