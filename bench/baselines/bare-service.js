// The bare baselines of `npm run load`: what the pass service does, written
// directly on node:http, pg and node:crypto (no passmint), run as its own
// process like `passmint serve`, on the same PostgreSQL database (tables
// `bare_*`), with the same pool size (10).
//
//   POST /passes                 a durable create: one transaction, two INSERTs (pass, event)
//   PUT  /passes/:serial/values  an update: one transaction, UPDATE + INSERT (event)
//   GET  /passes/:serial/pkpass  a download: SELECT, hand-written sign-and-zip, INSERT (event)
//   GET  /wallet/passes/:serial  Wallet's fetch (ApplePass token): SELECT, the signed bytes of
//                                that version kept in memory (signed on the first fetch)
//   GET  /templates/:id          SELECT, the stored JSON
//
// and a claim-post-record delivery loop: up to 16 deliveries in flight, each
// the oldest pending delivery of its pass to its registration (found among
// the registration's first 256 pending ones; FOR UPDATE SKIP LOCKED), posted
// with an HMAC-SHA1 signature, recorded (status + attempt) in one statement;
// a claim round whenever a slot frees, and when idle again after 5 ms, as
// `passmint serve --poll-ms 5` does.
//
// Usage: node bench/baselines/bare-service.js <database-url> <folder>
// where the folder holds pass.pem, pass.key, wwdr.pem and files/ (the pass's images).

import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { Agent, createServer, request as httpRequest } from 'node:http';
import { join, relative } from 'node:path';
import pg from 'pg';
import { preparedPipeline } from '../pkpass.js';

const [databaseUrl, folder] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
const pki = { certPem: readFileSync(join(folder, 'pass.pem'), 'utf8'), keyPem: readFileSync(join(folder, 'pass.key'), 'utf8'), wwdrPem: readFileSync(join(folder, 'wwdr.pem'), 'utf8') };

function listFiles(dir, base = dir, out = {}) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) listFiles(path, base, out);
    else out[relative(base, path)] = new Uint8Array(readFileSync(path));
  }
  return out;
}
const pack = preparedPipeline(pki, listFiles(join(folder, 'files')));
const PASS_TYPE = process.env.BARE_PASS_TYPE ?? 'pass.com.example.bench';
const TEAM = process.env.BARE_TEAM ?? 'A93A5CM278';

await pool.query(`
  create table if not exists bare_templates (id serial primary key, body jsonb not null);
  create table if not exists bare_passes (serial text primary key, token text not null, template_id int not null, values jsonb not null, pass jsonb not null, version int not null default 1, updated_at timestamptz not null default now());
  create table if not exists bare_events (id bigserial primary key, type text not null, data jsonb not null, created_at timestamptz not null default now());
  create table if not exists bare_registrations (id serial primary key, url text not null, secret text not null);
  create table if not exists bare_deliveries (id bigserial primary key, registration_id int not null, event_id bigint not null, status text not null, attempts int not null default 0, locked_until timestamptz, delivered_at timestamptz);
  alter table bare_deliveries add column if not exists pass_key text not null default '';
  create index if not exists bare_deliveries_order on bare_deliveries (registration_id, id) where status = 'pending';
  create table if not exists bare_attempts (id bigserial primary key, delivery_id bigint not null, at timestamptz not null default now(), status int, ms int not null);
`);

/** What a hand-written service renders for the bench template: one literal. */
function render(values, serial, token) {
  return {
    formatVersion: 1,
    passTypeIdentifier: PASS_TYPE,
    teamIdentifier: TEAM,
    serialNumber: serial,
    authenticationToken: token,
    webServiceURL: 'https://passes.example.com/wallet',
    organizationName: 'passmint',
    description: 'Bench card',
    logoText: values.club,
    backgroundColor: 'rgb(20, 40, 60)',
    generic: {
      primaryFields: [{ key: 'name', label: 'Member', value: values.name }],
      secondaryFields: [{ key: 'level', label: 'Level', value: values.level }],
    },
  };
}

async function readJson(incoming) {
  const chunks = [];
  for await (const chunk of incoming) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function send(outgoing, status, body, headers = {}) {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  outgoing.writeHead(status, { 'content-length': bytes.length, ...headers });
  outgoing.end(bytes);
}

async function transaction(work) {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

const signed = new Map(); // `${serial}:${version}` → signed bytes, the latest 1,000
const json = { 'content-type': 'application/json' };
const pkpassHeaders = { 'content-type': 'application/vnd.apple.pkpass' };

async function handle(incoming, outgoing) {
  const url = new URL(incoming.url, 'http://bare');
  const parts = url.pathname.split('/').filter(Boolean);
  if (incoming.method === 'POST' && url.pathname === '/passes') {
    const { values, templateId = 1 } = await readJson(incoming);
    const serial = randomUUID();
    const token = randomUUID();
    const pass = render(values, serial, token);
    await transaction(async (client) => {
      await client.query('insert into bare_passes (serial, token, template_id, values, pass) values ($1, $2, $3, $4, $5)', [serial, token, templateId, values, pass]);
      await client.query('insert into bare_events (type, data) values ($1, $2)', ['pass.created', { serialNumber: serial, passTypeIdentifier: PASS_TYPE }]);
    });
    return send(outgoing, 201, JSON.stringify({ serialNumber: serial, authenticationToken: token, version: 1 }), json);
  }
  if (incoming.method === 'PUT' && parts[0] === 'passes' && parts[2] === 'values') {
    const values = await readJson(incoming);
    const serial = parts[1];
    const version = await transaction(async (client) => {
      const { rows } = await client.query('update bare_passes set values = $2, pass = jsonb_set(jsonb_set(pass, \'{generic,primaryFields,0,value}\', to_jsonb($3::text)), \'{logoText}\', to_jsonb($4::text)), version = version + 1, updated_at = now() where serial = $1 returning version', [serial, values, values.name, values.club]);
      if (rows.length === 0) return undefined;
      await client.query('insert into bare_events (type, data) values ($1, $2)', ['pass.updated', { serialNumber: serial, passTypeIdentifier: PASS_TYPE }]);
      return rows[0].version;
    });
    return version === undefined ? send(outgoing, 404, '{}', json) : send(outgoing, 200, JSON.stringify({ serialNumber: serial, version }), json);
  }
  if (incoming.method === 'GET' && parts[0] === 'passes' && parts[2] === 'pkpass') {
    const { rows } = await pool.query('select pass, updated_at from bare_passes where serial = $1', [parts[1]]);
    if (rows.length === 0) return send(outgoing, 404, '{}', json);
    const bytes = pack(rows[0].pass, new Date(Math.floor(Date.now() / 1000) * 1000));
    await pool.query('insert into bare_events (type, data) values ($1, $2)', ['pass.downloaded', { serialNumber: parts[1], passTypeIdentifier: PASS_TYPE }]);
    return send(outgoing, 200, bytes, { ...pkpassHeaders, 'last-modified': rows[0].updated_at.toUTCString() });
  }
  if (incoming.method === 'GET' && parts[0] === 'wallet' && parts[1] === 'passes') {
    const { rows } = await pool.query('select token, version, pass, updated_at from bare_passes where serial = $1', [parts[2]]);
    const row = rows[0];
    if (row === undefined || incoming.headers.authorization !== `ApplePass ${row.token}`) return send(outgoing, 401, '');
    const key = `${parts[2]}:${row.version}`;
    let bytes = signed.get(key);
    if (bytes === undefined) {
      bytes = pack(row.pass, row.updated_at);
      if (signed.size >= 1000) signed.delete(signed.keys().next().value);
      signed.set(key, bytes);
    }
    return send(outgoing, 200, bytes, { ...pkpassHeaders, 'last-modified': row.updated_at.toUTCString() });
  }
  if (incoming.method === 'GET' && parts[0] === 'templates') {
    const { rows } = await pool.query('select body from bare_templates where id = $1', [Number(parts[1])]);
    return rows.length === 0 ? send(outgoing, 404, '{}', json) : send(outgoing, 200, JSON.stringify(rows[0].body), json);
  }
  if (incoming.method === 'POST' && url.pathname === '/templates') {
    const body = await readJson(incoming);
    const { rows } = await pool.query('insert into bare_templates (body) values ($1) returning id', [body]);
    return send(outgoing, 201, JSON.stringify({ ...body, id: rows[0].id }), json);
  }
  return send(outgoing, 404, '{}', json);
}

// --- The delivery loop -----------------------------------------------------------
const IN_FLIGHT = 16;
const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
let inFlight = 0;
let claiming = false;

// Per registration, its first 256 pending deliveries: a free one whose pass has no earlier one among them.
const CLAIM = `
  with claimed as (
    update bare_deliveries d set locked_until = now() + interval '60 seconds', attempts = d.attempts + 1
    where d.id in (
      select q.id from bare_deliveries q
       where q.id in (
         select w.id from bare_registrations r
         cross join lateral (
           select p.id, p.locked_until, row_number() over (partition by p.pass_key order by p.id) as place
             from (select id, pass_key, locked_until from bare_deliveries
                    where registration_id = r.id and status = 'pending' order by id limit 256) p) w
         where w.place = 1 and (w.locked_until is null or w.locked_until < now())
         order by w.id limit $1)
         and q.status = 'pending' and (q.locked_until is null or q.locked_until < now())
       order by q.id
         for update skip locked)
    returning d.id, d.registration_id, d.event_id)
  select c.id, r.url, r.secret, e.id as event_id, e.type, e.data, e.created_at
  from claimed c join bare_registrations r on r.id = c.registration_id join bare_events e on e.id = c.event_id`;
const RECORD = `
  with done as (update bare_deliveries set status = 'delivered', delivered_at = now(), locked_until = null where id = $1 returning id)
  insert into bare_attempts (delivery_id, status, ms) select id, $2, $3 from done`;

function post(url, body, signature) {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-service-signature': signature } }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(answer.statusCode));
      answer.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

async function deliver(delivery) {
  const started = performance.now();
  const body = JSON.stringify({ id: String(delivery.event_id), type: delivery.type, created: delivery.created_at.toISOString(), data: delivery.data });
  const signature = `sha1=${createHmac('sha1', delivery.secret).update(body).digest('hex')}`;
  let status = null;
  try {
    status = await post(delivery.url, body, signature);
  } catch {
    status = null;
  }
  if (status !== null && status >= 200 && status < 300) await pool.query(RECORD, [delivery.id, status, Math.round(performance.now() - started)]);
  else await pool.query(`update bare_deliveries set locked_until = now() + interval '1 second' where id = $1`, [delivery.id]);
}

async function claimRound() {
  if (claiming || inFlight >= IN_FLIGHT) return;
  claiming = true;
  try {
    const { rows } = await pool.query(CLAIM, [IN_FLIGHT - inFlight]);
    for (const delivery of rows) {
      inFlight++;
      void deliver(delivery).finally(() => {
        inFlight--;
        void claimRound();
      });
    }
  } finally {
    claiming = false;
  }
}
setInterval(() => void claimRound().catch(() => undefined), 5).unref();

const server = createServer((incoming, outgoing) => {
  handle(incoming, outgoing).catch((error) => {
    if (!outgoing.headersSent) send(outgoing, 500, JSON.stringify({ error: error.message }), json);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`bare service: listening on http://127.0.0.1:${server.address().port}\n`);
});
const stop = () => server.close(() => pool.end().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
