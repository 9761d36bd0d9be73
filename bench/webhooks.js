// Webhook signatures: our signPayload + verifySignature of a 1 KB body, against
// node:crypto createHmac + timingSafeEqual doing the same work, in the same run.
// Target (issue 6): within 1.5× in Node. Also reports the Web Crypto
// implementation (what browsers and workers run) for reference.
//
// The library is bundled from src/ with the `node` condition, as Node resolves
// the published package (#hmac → node:crypto).

import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rolldown } from 'rolldown';
import { measureAsync, median, pairedRatio } from './lib/measure.js';

const root = fileURLToPath(new URL('../', import.meta.url));

/** Bundles src/webhooks for Node (the `node` condition) and imports it, with the web HMAC beside it. */
async function load() {
  const dir = mkdtempSync(join(tmpdir(), 'passmint-bench-webhooks-'));
  try {
    const bundle = await rolldown({
      input: { webhooks: `${root}src/webhooks/index.ts`, web: `${root}src/webhooks/hmac/web.ts` },
      resolve: { extensionAlias: { '.js': ['.ts', '.js'] }, conditionNames: ['node', 'import', 'default'] },
      platform: 'node',
      logLevel: 'silent',
    });
    await bundle.write({ dir, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' });
    await bundle.close();
    const [webhooks, web] = await Promise.all([
      import(pathToFileURL(join(dir, 'webhooks.js')).href),
      import(pathToFileURL(join(dir, 'web.js')).href),
    ]);
    return { webhooks, web };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A 1 KB JSON body, as a service sends it. */
function body1k() {
  const base = { id: '9f1c7d5e-3b0a-4c7e-9a51-2d7f8e6b4c10', type: 'pass.updated', created: '2025-03-01T12:00:00Z' };
  const text = JSON.stringify({ ...base, data: { serialNumber: 'E5982H-I2', passTypeIdentifier: 'pass.com.example.ticket', note: '' } });
  return text.replace('"note":""', `"note":"${'x'.repeat(1024 - text.length)}"`);
}


/**
 * Runs the webhook benchmark.
 *
 * @returns {Promise<{ name: string, ours: number, baseline: number, ratio: number }[]>} ns per sign+verify; ratio = ours / baseline (median of same-round ratios)
 */
export async function benchWebhooks() {
  const { webhooks, web } = await load();
  const { signPayload, verifySignature } = webhooks;
  const secret = 'whsec_3q2Lk0aVbJ5Yc1yF8pQmZ7tR9wXeU4sD6gH2jK8lN0o';
  const body = body1k();
  if (new TextEncoder().encode(body).length !== 1024) throw new Error('body is not 1 KB');

  // Same work: sign (sha1=<hex>), then check a sha1= header in constant time.
  const nodeSign = () => `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;
  const nodeVerify = (header) => {
    if (typeof header !== 'string' || header.length !== 45 || !header.startsWith('sha1=')) return false;
    const expected = Buffer.from(header.slice(5), 'hex');
    return expected.length === 20 && timingSafeEqual(createHmac('sha1', secret).update(body).digest(), expected);
  };
  const header = nodeSign();
  if ((await signPayload(body, secret)) !== header || !(await verifySignature(body, header, secret))) {
    throw new Error('signPayload disagrees with node:crypto');
  }
  if ((await web.webHmac.signHex(secret, body)) !== header.slice(5)) throw new Error('Web Crypto disagrees with node:crypto');

  const timings = await measureAsync([
    { name: 'node:crypto', fn: () => nodeVerify(nodeSign()) },
    { name: 'passmint (node)', fn: async () => verifySignature(body, await signPayload(body, secret), secret) },
    {
      name: 'passmint web impl',
      fn: async () => web.webHmac.verifyDigest([secret], body, Buffer.from((await web.webHmac.signHex(secret, body)), 'hex')),
    },
  ]);
  const baseline = timings.get('node:crypto');
  return ['passmint (node)', 'passmint web impl'].map((name) => {
    const ours = timings.get(name);
    return {
      name: `webhooks: sign + verify 1 KB, ${name === 'passmint (node)' ? 'signPayload + verifySignature' : 'Web Crypto implementation'} vs createHmac + timingSafeEqual`,
      ours: ours.median,
      baseline: baseline.median,
      ratio: pairedRatio(ours, baseline),
    };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchWebhooks()) {
    console.log(`${row.name}: ${(row.ours / 1000).toFixed(2)} µs vs ${(row.baseline / 1000).toFixed(2)} µs → ${row.ratio.toFixed(2)}×`);
  }
}
