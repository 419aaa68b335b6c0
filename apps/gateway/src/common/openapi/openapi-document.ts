import { RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { type DtoClass, dtoSchemas, ErrorResponse, type JsonSchema } from '@app/contracts';
import { requiredScope } from '../scope-policy';
import { API_ROUTE, type RouteDoc } from './api-route.decorator';

/*
 * The OpenAPI 3.1 document, built from the gateway's controllers. How a route gets into it:
 *  1. its request and response DTOs are classes in libs/contracts with class-validator decorators
 *     (responses too: `@IsString()`, `@IsOptional()` for nullable, `@ValidateNested() @Type(() => X)`);
 *     their JSON Schemas are derived from those rules (`dtoSchemas`), never written here;
 *  2. its controller method carries `@ApiRoute({ summary, body, query, response, ... })`;
 *  3. its scope comes from common/scope-policy.ts, the table the auth guard enforces.
 * Non-JSON answers (text/plain, a stream) go in `content`. A handler mounted with `app.use` is
 * invisible here: serve it from a controller instead (`@All('mcp')` for a transport that answers
 * several methods; `@ApiRoute({ methods })` names them). A served route without `@ApiRoute` is
 * listed as `x-undocumented` and fails openapi.int.spec.ts, which names it.
 */

export interface DocumentOptions {
  version: string;
  metricsPublic: boolean;
  docsPublic: boolean;
}

type Operation = Record<string, unknown>;
const ALL_METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const ERROR_REF = { $ref: '#/components/schemas/ErrorResponse' };

const ERRORS: Record<number, string> = {
  400: 'bad_request / invalid_params: the body or query is wrong; `details` lists every bad field',
  401: 'unauthorized: a missing, malformed, unknown or revoked API key',
  403: "forbidden: the key lacks the route's scope",
  404: 'not_found',
  413: 'payload_too_large: the body is over 1 MiB',
  429: 'rate_limited: over the key’s rate, concurrency or daily token limit; budget_exceeded: the key’s daily cost budget is spent (see `Retry-After`)',
  503: 'unavailable: a service the route needs is down',
  504: 'timeout',
};

export function buildOpenApiDocument(controllers: DtoClass[], options: DocumentOptions): JsonSchema {
  const paths: Record<string, Record<string, Operation>> = {};
  const requests = new Set<DtoClass>();
  const responses = new Set<DtoClass>([ErrorResponse]);
  for (const controller of controllers) {
    for (const route of controllerRoutes(controller)) {
      const doc = Reflect.getMetadata(API_ROUTE, route.handler) as RouteDoc | undefined;
      for (const cls of [doc?.body, doc?.query]) if (cls) requests.add(cls);
      for (const cls of responseClasses(doc)) if (cls) responses.add(cls);
      paths[route.path] ??= {};
      paths[route.path][route.method] = operation(route, controller, doc, options);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'AgentChassis gateway',
      version: options.version,
      description:
        'Chat with agents that call real functions; manage functions, tasks, sessions, runs and API keys. ' +
        "Every route but the public ones needs an API key, `Authorization: Bearer <key>`, with the route's " +
        'scope (`x-required-scopes`); an `admin` key may call every route. Errors are ' +
        '`{"error":{"code","message","details"}}`.',
    },
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      // requests refuse unknown fields (parseDto), answers may grow new ones
      schemas: { ...dtoSchemas([...responses]), ...dtoSchemas([...requests], { closed: true }) },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: "an API key: 'Authorization: Bearer ac_…'" },
      },
    },
  };
}

interface Route {
  path: string;
  method: string;
  handler: object;
  status?: number;
}

/** The routes Nest registers for a controller, with `:param` turned into OpenAPI's `{param}`. */
function controllerRoutes(controller: DtoClass): Route[] {
  const prefixes = asArray(Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined);
  const proto = controller.prototype as Record<string, object>;
  const routes: Route[] = [];
  for (const key of Object.getOwnPropertyNames(proto)) {
    const handler = proto[key];
    const verb = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
    if (key === 'constructor' || verb === undefined) continue;
    const status = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
    const doc = Reflect.getMetadata(API_ROUTE, handler) as RouteDoc | undefined;
    const methods =
      verb === RequestMethod.ALL ? (doc?.methods ?? ALL_METHODS) : [RequestMethod[verb].toLowerCase()];
    for (const prefix of prefixes) {
      for (const suffix of asArray(Reflect.getMetadata(PATH_METADATA, handler) as string | string[])) {
        const path = `/${prefix}/${suffix}`
          .replace(/\/+/g, '/')
          .replace(/(.)\/$/, '$1')
          .replace(/:([A-Za-z0-9_]+)/g, '{$1}');
        for (const method of methods) routes.push({ path, method, handler, status });
      }
    }
  }
  return routes;
}

function asArray(value: string | string[] | undefined): string[] {
  return value === undefined ? [''] : Array.isArray(value) ? value : [value];
}

function responseClasses(doc: RouteDoc | undefined): (DtoClass | undefined)[] {
  if (!doc) return [];
  const response = Array.isArray(doc.response) ? doc.response[0] : (doc.response ?? undefined);
  return [response, ...Object.values(doc.events ?? {}), doc.errorBody, doc.accepted?.response];
}

function operation(route: Route, controller: DtoClass, doc: RouteDoc | undefined, options: DocumentOptions) {
  const params = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const access = security(route, options);
  const op: Operation = {
    tags: [doc?.tag ?? tagOf(route.path)],
    summary: doc?.summary ?? 'undocumented',
    operationId: `${controller.name.replace(/Controller$/, '')}_${route.method}_${route.path}`.replace(
      /\W+/g,
      '_',
    ),
    ...(access.scope ? { 'x-required-scopes': [access.scope] } : {}),
    description: [doc?.description, access.note].filter(Boolean).join('\n\n'),
    security: access.security,
    parameters: [
      ...params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...queryParameters(doc?.query),
      ...Object.entries(doc?.headers ?? {}).map(([name, description]) => ({
        name,
        in: 'header',
        required: false,
        description,
        schema: { type: 'string' },
      })),
    ],
    ...(doc?.body ? { requestBody: requestBody(doc.body) } : {}),
    responses: {
      ...success(route, doc),
      ...errors(route, doc, params.length > 0, access.security.length > 0),
    },
    ...(doc ? {} : { 'x-undocumented': true }),
  };
  return op;
}

function tagOf(path: string): string {
  return /^\/api\/v1\/([^/]+)/.exec(path)?.[1] ?? (path.startsWith('/api/') ? 'docs' : 'platform');
}

function security(route: Route, options: DocumentOptions) {
  const scope = requiredScope(route.method.toUpperCase(), route.path.replace(/\{[^}]+\}/g, 'x'));
  const open = { security: [] as object[], scope: undefined, note: 'Public: no API key needed.' };
  if (scope === 'public') return open;
  if (scope === 'metrics' && options.metricsPublic) return { ...open, note: `${open.note} (METRICS_PUBLIC)` };
  if (scope === 'docs' && options.docsPublic) return { ...open, note: `${open.note} (DOCS_PUBLIC)` };
  const needed = scope === 'metrics' ? 'admin' : scope === 'docs' ? undefined : scope;
  const note = needed
    ? `Needs an API key with the \`${needed}\` scope (or \`admin\`).`
    : 'Needs any valid API key.';
  return { security: [{ bearer: [] }], scope: needed, note };
}

function queryParameters(query: DtoClass | undefined): object[] {
  if (!query) return [];
  const schema = dtoSchemas([query])[query.name] as {
    properties: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(schema.properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: property,
  }));
}

/** A body whose fields are all optional may be left out (the handler reads it as `{}`). */
function requestBody(body: DtoClass): object {
  const { required } = dtoSchemas([body])[body.name] as { required?: string[] };
  return { required: (required?.length ?? 0) > 0, content: { 'application/json': { schema: ref(body) } } };
}

function ref(cls: DtoClass): JsonSchema {
  return { $ref: `#/components/schemas/${cls.name}` };
}

function success(route: Route, doc: RouteDoc | undefined): Record<string, object> {
  const status = doc?.status ?? route.status ?? (route.method === 'post' ? 201 : 200);
  const content: Record<string, object> = {};
  if (doc?.response) {
    const schema = Array.isArray(doc.response)
      ? { type: 'array', items: ref(doc.response[0]) }
      : ref(doc.response);
    content['application/json'] = { schema };
  }
  Object.assign(content, doc?.content ?? {});
  if (doc?.events) content['text/event-stream'] = eventStream(doc.events);
  const description = doc?.events
    ? `JSON; or, with \`Accept: text/event-stream\`, server-sent events: ${Object.keys(doc.events).join(', ')}`
    : 'success';
  const accepted = doc?.accepted && {
    202: {
      description: doc.accepted.description,
      content: { 'application/json': { schema: ref(doc.accepted.response) } },
    },
  };
  return { [status]: Object.keys(content).length ? { description, content } : { description }, ...accepted };
}

/** Each event is `event: <name>` with JSON `data`; OpenAPI 3.1 has no per-event schema, so they go in `x-events`. */
function eventStream(events: Record<string, DtoClass | undefined>): object {
  return {
    schema: {
      type: 'string',
      description: `a text/event-stream of the events ${Object.keys(events).join(', ')}; each \`data:\` is JSON`,
    },
    'x-events': Object.fromEntries(
      Object.entries(events).map(([name, cls]) => [name, cls ? ref(cls) : { type: 'object' }]),
    ),
  };
}

function errors(route: Route, doc: RouteDoc | undefined, hasParams: boolean, authenticated: boolean) {
  const statuses: Record<number, string> = {};
  if (doc?.body || doc?.query) statuses[400] = ERRORS[400];
  if (doc?.body) statuses[413] = ERRORS[413];
  if (authenticated) Object.assign(statuses, { 401: ERRORS[401], 403: ERRORS[403], 429: ERRORS[429] });
  if (hasParams) statuses[404] = ERRORS[404];
  if (route.path.startsWith('/api/v1/')) Object.assign(statuses, { 503: ERRORS[503], 504: ERRORS[504] });
  Object.assign(statuses, doc?.errors ?? {});
  return Object.fromEntries(
    Object.entries(statuses).map(([status, description]) => [
      status,
      {
        description,
        content: { 'application/json': { schema: doc?.errorBody ? ref(doc.errorBody) : ERROR_REF } },
      },
    ]),
  );
}
