import type { Scope } from '@app/contracts';

/** A key's scope; or `public`; or a route public by a setting (`metrics`: METRICS_PUBLIC, `docs`: DOCS_PUBLIC). */
export type RouteScope = Scope | 'public' | 'metrics' | 'docs' | 'authenticated';

/**
 * Which scope each route needs, in one table (first match wins). Routes not listed need `admin`:
 * a new route is closed until someone decides who may call it.
 */
const POLICY: { method: RegExp; path: RegExp; scope: RouteScope }[] = [
  { method: /^GET$/, path: /^\/health(\/live)?$|^\/api\/v1\/health$/, scope: 'public' },
  // the web console's page and files (its API calls carry the key)
  { method: /^GET$/, path: /^\/$|^\/assets\/[^/]+$/, scope: 'public' },
  { method: /^GET$/, path: /^\/metrics$/, scope: 'metrics' },
  { method: /^GET$/, path: /^\/api\/docs(\/[^/]+)?$|^\/api\/openapi\.json$/, scope: 'docs' },
  { method: /^(GET|POST|DELETE)$/, path: /^\/api\/v1\/(chat|sessions|runs|memory)(\/.*)?$/, scope: 'chat' },
  { method: /^GET$/, path: /^\/api\/v1\/agents(\/[^/]+)?$/, scope: 'chat' },
  // a key's own runs counted; an admin key sees every principal's
  { method: /^GET$/, path: /^\/api\/v1\/usage$/, scope: 'chat' },
  // The OpenAI-compatible API: its two routes, and a 404 in its own error shape for any other.
  { method: /^[A-Z]+$/, path: /^\/v1\/.+$/, scope: 'chat' },
  // AG-UI: an agent's run as AG-UI events
  { method: /^POST$/, path: /^\/ag-ui(\/[^/]+)?$/, scope: 'chat' },
  // A2A: the public agent card as A2A clients fetch it; an agent's own card and its JSON-RPC with a key
  { method: /^GET$/, path: /^\/\.well-known\/agent-card\.json$/, scope: 'public' },
  // MCP: where a client finds how to authorize against /mcp
  { method: /^GET$/, path: /^\/\.well-known\/oauth-protected-resource(\/mcp)?$/, scope: 'public' },
  { method: /^(GET|POST)$/, path: /^\/a2a\/[^/]+(\/\.well-known\/agent-card\.json)?$/, scope: 'chat' },
  {
    method: /^GET$/,
    path: /^\/api\/v1\/functions(\/[^/]+)?$|^\/api\/v1\/mcp\/servers$/,
    scope: 'functions:read',
  },
  { method: /^POST$/, path: /^\/api\/v1\/functions\/[^/]+\/invoke$/, scope: 'functions:invoke' },
  // any valid key; each MCP tool is then offered by the scope it needs (functions:invoke, chat)
  { method: /^(GET|POST|DELETE)$/, path: /^\/mcp$/, scope: 'authenticated' },
  { method: /^GET$/, path: /^\/api\/v1\/me$/, scope: 'authenticated' },
  { method: /^GET$/, path: /^\/api\/v1\/(delays|crons)(\/[^/]+)?$/, scope: 'tasks:read' },
  { method: /^(POST|DELETE)$/, path: /^\/api\/v1\/(delays|crons)(\/[^/]+)?$/, scope: 'tasks:write' },
];

export function requiredScope(method: string, path: string): RouteScope {
  const normalised = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return POLICY.find((rule) => rule.method.test(method) && rule.path.test(normalised))?.scope ?? 'admin';
}
