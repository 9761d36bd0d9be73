// An internal error of `passmint serve`, end to end: the CLI bundled and
// spawned on PostgreSQL, a request made to fail inside the service (a column
// the service reads renamed under it). It is one JSON line on stdout with
// the route and the database's code, no stack trace anywhere unless
// PASSMINT_DEBUG=1, and never the database password.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bundleCli, startServe, type ServeProcess } from './child.js';
import { createPostgresDatabase } from './databases.js';

const PASSWORD = 's3cret-db-pw';

describe('passmint serve: internal errors in the log', () => {
  let cli: { script: string; remove: () => void };
  let database: { url: string; drop: () => Promise<void> };
  let url: string;
  // The first start prints it; the second start reuses it.
  let key: string | undefined;

  beforeAll(async () => {
    [cli, database] = await Promise.all([bundleCli(), createPostgresDatabase()]);
    // The test server trusts local connections: the password is carried, never checked.
    url = database.url.replace('postgres://postgres@', `postgres://postgres:${PASSWORD}@`);
  });

  afterAll(async () => {
    cli?.remove();
    await database?.drop();
  });

  /** Starts the service, makes GET /v1/templates/{id} fail inside it, and returns what it printed, stopped. */
  async function failOnce(env: Record<string, string>, requestId: string): Promise<{ output: string; lines: any[] }> {
    const served: ServeProcess = await startServe(cli.script, [], { DATABASE_URL: url, ...env });
    try {
      key ??= served.apiKey;
      expect(key).toBeDefined();
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': requestId };
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const created = await fetch(`${served.url}/v1/templates`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            name: 'T',
            formatVersion: 1,
            passType: 'pass.com.example.t',
            description: { generic: { primaryFields: [{ key: 'name', label: 'Name', value: '${name}' }] } },
            placeholder: ['name'],
          }),
        });
        expect(created.status).toBe(201);
        const { id } = await created.json();
        await client.query('alter table passmint_templates rename column template to template_broken');
        try {
          const failed = await fetch(`${served.url}/v1/templates/${id}`, { headers });
          expect(failed.status).toBe(500);
          expect((await failed.json()).code).toBe('internal-error');
        } finally {
          await client.query('alter table passmint_templates rename column template_broken to template');
        }
      } finally {
        await client.end();
      }
      await expect.poll(() => served.output().includes('"type":"error"'), { timeout: 5000 }).toBe(true);
    } finally {
      served.child.kill('SIGTERM');
      expect(await served.exited).toBe(0);
    }
    const output = served.output();
    const lines = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    return { output, lines };
  }

  test('one JSON line with the route, the request id and the database code; no stack trace, no password', async () => {
    const { output, lines } = await failOnce({}, 'req-error-1');
    const errors = lines.filter((line) => line.type === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      type: 'error',
      level: 'error',
      code: '42703',
      method: 'GET',
      route: '/v1/templates/{id}',
      requestId: 'req-error-1',
    });
    expect(errors[0].message).toContain('template');
    expect(errors[0].stack).toBeUndefined();
    // The request's own line, with the same id.
    expect(lines.find((line) => line.type === 'request' && line.status === 500)).toMatchObject({ route: '/v1/templates/{id}', requestId: 'req-error-1' });
    // Nothing else: no stack frames on either stream, no password.
    expect(output).not.toMatch(/\n\s+at /);
    expect(output).not.toContain(PASSWORD);
  }, 90_000);

  test('with PASSMINT_DEBUG=1 the same line carries the stack trace', async () => {
    const { output, lines } = await failOnce({ PASSMINT_DEBUG: '1' }, 'req-error-2');
    const [error] = lines.filter((line) => line.type === 'error');
    expect(error).toMatchObject({ code: '42703', route: '/v1/templates/{id}', requestId: 'req-error-2' });
    expect(error.stack).toMatch(/\n\s+at /);
    expect(output).not.toContain(PASSWORD);
  }, 90_000);
});
