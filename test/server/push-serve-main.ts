// The `passmint serve` process of the push crash test: the same createServer
// the CLI starts (src/cli/serve.ts), with its APNs client pointed at the
// local HTTP/2 TLS stand-in instead of Apple's hosts — the one thing the CLI
// cannot be told, since `--apns` only names Apple's two environments.
// Bundled and spawned by ./child.ts; prints what `passmint serve` prints.
import { parseArgs } from 'node:util';
import { createApnsClient } from '../../src/apns/client.js';
import { createServer } from '../../src/server/create-server.js';

const { values } = parseArgs({
  args: process.argv.slice(3), // after `serve`
  options: {
    port: { type: 'string' },
    'database-url': { type: 'string' },
    data: { type: 'string' },
    'poll-ms': { type: 'string' },
    'lease-ms': { type: 'string' },
    'timeout-ms': { type: 'string' },
  },
});
// The stand-in's origin, its CA, and the Pass Type ID certificate as the TLS client certificate.
const standIn = JSON.parse(process.env['PASSMINT_TEST_APNS'] ?? '{}') as { origin: string; ca: string; cert: string; key: string };
const apns = createApnsClient({ certificate: { cert: standIn.cert, key: standIn.key }, origin: standIn.origin, ca: standIn.ca });
const server = await createServer({
  databaseUrl: values['database-url'],
  dataDir: values.data,
  // As the CLI reads it (child.ts gives the test key).
  secretKey: process.env['PASSMINT_SECRET_KEY'] || undefined,
  apns,
  delivery: {
    allowPrivateNetworks: true,
    pollMs: Number(values['poll-ms'] ?? 1000),
    leaseMs: Number(values['lease-ms'] ?? 60_000),
    timeoutMs: Number(values['timeout-ms'] ?? 15_000),
  },
  onError: (error) => process.stderr.write(`push-serve: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
});
const { url } = await server.listen(Number(values.port ?? 0), '127.0.0.1');
process.stdout.write(`passmint serve: listening on ${url}\n`);
if (server.firstApiKey !== undefined) process.stdout.write(`API key (shown once; only its hash is stored): ${server.firstApiKey}\n`);
process.stdout.write('Passes are not signed.\n');
const stop = (): void => {
  void server
    .close()
    .then(() => apns.close())
    .then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
