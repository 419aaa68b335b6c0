import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_EVENT_TYPES } from '@app/contracts';
import { expectEventually } from '@app/testing';
import { servedRoutes, startGateway } from '../../testing/in-process-gateway';

const ADMIN_KEY = 'ac_openapi_spec_admin_key_0123456789';
const env = { AC_ADMIN_KEY: ADMIN_KEY, ...(process.env.NATS_URL ? { NATS_URL: process.env.NATS_URL } : {}) };

interface Operation {
  security?: object[];
  'x-required-scopes'?: string[];
  'x-undocumented'?: boolean;
  parameters?: { name: string; in: string }[];
  requestBody?: { required: boolean; content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}
interface Doc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { required?: string[] }>; securitySchemes: Record<string, object> };
}

describe('the OpenAPI document and its UI (in-process gateway, real NATS, Redis, SQLite)', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let doc: Doc;
  const admin = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };

  beforeAll(async () => {
    gateway = await startGateway(env);
    const res = await fetch(`${gateway.base}/api/openapi.json`);
    expect(res.status).toBe(200);
    doc = (await res.json()) as Doc;
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(
      structuredClone(doc) as unknown as Parameters<Validator['validate']>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  const undocumented = (served: string[]) =>
    served.filter((route) => {
      const [method, path] = route.split(' ');
      const ops =
        method === '*' ? Object.values(doc.paths[path] ?? {}) : [doc.paths[path]?.[method.toLowerCase()]];
      return ops.length === 0 || ops.some((op) => op === undefined || op['x-undocumented']);
    });

  it('documents every route the gateway serves', () => {
    const served = servedRoutes(gateway.app);
    expect(served).toEqual(
      expect.arrayContaining(['POST /api/v1/chat', 'GET /api/v1/runs/{id}', 'GET /metrics']),
    );
    const missing = undocumented(served);
    expect(
      missing,
      `served but not documented (add @ApiRoute to the handler): ${missing.join(', ')}`,
    ).toEqual([]);
  });

  it('would name a route added without documentation, a mounted handler too', () => {
    const express = gateway.app.getHttpAdapter().getInstance() as {
      get: (path: string, fn: () => void) => void;
      all: (path: string, fn: () => void) => void;
      use: (path: string, fn: () => void) => void;
      router: { stack: unknown[] };
    };
    const before = express.router.stack.length;
    express.get('/api/v1/later/:id', () => undefined);
    express.use('/mcp-later', () => undefined);
    express.all('/api/v1/later-all', () => undefined);
    try {
      expect(undocumented(servedRoutes(gateway.app))).toEqual([
        'GET /api/v1/later/{id}',
        '* /mcp-later',
        '* /api/v1/later-all',
      ]);
    } finally {
      express.router.stack.splice(before);
    }
  });

  it('has the bearer scheme on every route but the public ones, with the scope each needs', () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const open = path.startsWith('/health') || path === '/api/v1/health' || path === '/metrics';
        const docs = path === '/api/openapi.json' || path.startsWith('/api/docs');
        const webConsole = path === '/' || path.startsWith('/assets/');
        // what clients discover before they have a key: the public A2A card, MCP's resource metadata
        const discovery = path.startsWith('/.well-known/');
        expect(op.security, `${method} ${path}`).toEqual(
          open || docs || webConsole || discovery ? [] : [{ bearer: [] }],
        );
      }
    }
    expect(doc.paths['/api/v1/chat'].post['x-required-scopes']).toEqual(['chat']);
    expect(doc.paths['/api/v1/delays'].post['x-required-scopes']).toEqual(['tasks:write']);
    expect(doc.paths['/api/v1/keys'].get['x-required-scopes']).toEqual(['admin']);
    expect(doc.paths['/api/v1/runs/{id}'].get.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
    ]);
    expect(doc.paths['/api/v1/chat'].post.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual([
      'header:Idempotency-Key',
    ]);
    expect(doc.paths['/api/v1/chat'].post.responses).toHaveProperty('409');
    expect(doc.paths['/api/v1/delays'].get.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual([
      'query:status',
      'query:owner',
    ]);
    // invoke reads a missing body as {}: nothing in it is required
    expect(doc.paths['/api/v1/functions/{name}/invoke'].post.requestBody).toMatchObject({ required: false });
    expect(doc.paths['/api/v1/chat'].post.requestBody).toMatchObject({ required: true });
  });

  it("answers every error in its door's error shape, the platform's elsewhere", () => {
    const errors = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.values(methods).flatMap((op) =>
        Object.entries(op.responses)
          .filter(([status]) => Number(status) >= 400)
          .map(([, response]) => [path, response] as const),
      ),
    );
    expect(errors.length).toBeGreaterThan(20);
    // each door answers in its protocol's own error shape (the longest prefix wins)
    const doors: [string, string][] = [
      ['/v1/messages', 'AnthropicErrorResponse'],
      ['/v1/', 'OpenAiErrorResponse'],
      ['/a2a/', 'JsonRpcErrorResponse'],
      ['/mcp', 'JsonRpcErrorResponse'],
    ];
    for (const [path, response] of errors) {
      const shape = doors.find(([prefix]) => path.startsWith(prefix))?.[1] ?? 'ErrorResponse';
      expect(response.content?.['application/json'].schema, path).toEqual({
        $ref: `#/components/schemas/${shape}`,
      });
    }
    expect(doc.components.schemas.ErrorResponse).toMatchObject({ required: ['error'] });
    expect(doc.components.schemas.ErrorBody).toMatchObject({ required: ['code', 'message'] });
  });

  it('documents the chat answer as JSON or as server-sent events with their names', () => {
    const ok = doc.paths['/api/v1/chat'].post.responses['200'] as {
      content: Record<string, { schema: object; 'x-events'?: Record<string, object> }>;
    };
    expect(ok.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AgentRunReply' });
    const events = ok.content['text/event-stream']['x-events']!;
    expect(Object.keys(events)).toEqual([...AGENT_EVENT_TYPES, 'error']);
    expect(events.run_end).toEqual({ $ref: '#/components/schemas/AgentRunReply' });
    expect(events.error).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
    for (const schema of Object.values(events) as { $ref: string }[]) {
      expect(doc.components.schemas[schema.$ref.split('/').pop()!], schema.$ref).toBeDefined();
    }
    expect(doc.paths['/api/v1/runs/{id}/approve'].post.responses['200'].content).toHaveProperty(
      'text/event-stream',
    );
  });

  it.each([
    ['/api/v1/chat', 'post'],
    ['/api/v1/delays', 'post'],
    ['/api/v1/keys', 'post'],
  ])(
    'requires in %s what the validator demands, and refuses unknown fields as documented',
    async (path, method) => {
      const ref = doc.paths[path][method].requestBody!.content['application/json'].schema.$ref;
      const schema = doc.components.schemas[ref.split('/').pop()!] as {
        required: string[];
        additionalProperties: boolean;
      };
      const res = await fetch(`${gateway.base}${path}`, { method, headers: admin, body: '{}' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { details: { field: string }[] } };
      expect([...new Set(body.error.details.map((d) => d.field))].sort()).toEqual(
        [...schema.required].sort(),
      );
      expect(schema.additionalProperties).toBe(false);
      const extra = await fetch(`${gateway.base}${path}`, { method, headers: admin, body: '{"surplus":1}' });
      expect(
        ((await extra.json()) as { error: { details: { field: string }[] } }).error.details,
      ).toContainEqual(expect.objectContaining({ field: 'surplus' }));
    },
  );

  it('describes the real answers: each validates against its documented schema', async () => {
    // formats (date-time) are not checked: ajv-formats is not among the project's dependencies
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema(doc as object, 'openapi');
    const check = async (res: Response, schema: string) => {
      const body: unknown = await res.json();
      const valid = ajv.validate({ $ref: `openapi#/components/schemas/${schema}` }, body);
      expect(ajv.errors ?? [], `${res.url} ${JSON.stringify(body)}`).toEqual([]);
      expect(valid).toBe(true);
    };
    const created = await fetch(`${gateway.base}/api/v1/keys`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'schema-check', scopes: ['chat'] }),
    });
    expect(created.status).toBe(201);
    await check(created, 'CreatedApiKey');
    await check(await fetch(`${gateway.base}/api/v1/keys`, { headers: admin }), 'ApiKeyList');
    await check(await fetch(`${gateway.base}/health/live`), 'LivenessView');
    await check(await fetch(`${gateway.base}/health`), 'HealthView');
    await check(await fetch(`${gateway.base}/api/v1/functions`), 'ErrorResponse');
    // a schema that does not fit is refused: the check can fail
    expect(ajv.validate({ $ref: 'openapi#/components/schemas/ApiKeyList' }, { keys: [{ id: 1 }] })).toBe(
      false,
    );
  });

  it('serves the UI page and its assets from the gateway alone, with no other origin named', async () => {
    const page = await fetch(`${gateway.base}/api/docs`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThanOrEqual(3);
    expect(html).not.toMatch(/https?:|\/\//);
    for (const ref of refs) {
      const url = new URL(ref, page.url);
      expect(url.origin).toBe(new URL(gateway.base).origin);
      const asset = await fetch(url);
      expect(asset.status, ref).toBe(200);
      const text = await asset.text();
      if (ref.endsWith('.css')) expect(text.match(/url\((?!["']?data:)[^)]*\)/g) ?? []).toEqual([]);
      if (ref.endsWith('init.js')) {
        expect(text).not.toMatch(/https?:|\/\//);
        expect(text).toMatch(/validatorUrl: null/);
        expect(new URL(/url: '([^']+)'/.exec(text)![1], page.url).pathname).toBe('/api/openapi.json');
      }
    }
    expect((await fetch(`${gateway.base}/api/docs/package.json`)).status).toBe(404);
    const slash = await fetch(`${gateway.base}/api/docs/`, { redirect: 'manual' });
    expect([slash.status, slash.headers.get('location')]).toEqual([301, '/api/docs']);
  });

  it('still answers /api/docs with the document to a client that does not ask for HTML', async () => {
    const res = await fetch(`${gateway.base}/api/docs`);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual(doc);
  });

  it('serves the document and UI without a key by default, and only with one when DOCS_PUBLIC=false', async () => {
    const closed = await startGateway({ ...env, DOCS_PUBLIC: 'false' });
    try {
      for (const path of ['/api/openapi.json', '/api/docs', '/api/docs/init.js']) {
        expect((await fetch(`${gateway.base}${path}`)).status, path).toBe(200);
        expect((await fetch(`${closed.base}${path}`)).status, path).toBe(401);
        // the first keyed request may find the new gateway's Redis connection still opening (503)
        await expectEventually(async () => {
          const withKey = await fetch(`${closed.base}${path}`, { headers: admin });
          expect(withKey.status, path).toBe(200);
        });
      }
      const closedDoc = (await (
        await fetch(`${closed.base}/api/openapi.json`, { headers: admin })
      ).json()) as Doc;
      expect(closedDoc.paths['/api/openapi.json'].get.security).toEqual([{ bearer: [] }]);
    } finally {
      await closed.close();
    }
  });
});
