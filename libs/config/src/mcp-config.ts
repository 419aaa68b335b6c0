import { ConfigError } from './config.error';
import { parseValue } from './parse-value';

interface McpServerBase {
  /** Unique; names the server in logs and errors. */
  name: string;
  /** Start of every tool's function name (`<prefix>_<tool>`); the server's name by default. */
  prefix: string;
  /** Applies to connecting, listing and each call (ms). */
  timeout: number;
  /** Tool names to serve (all when absent) and to leave out. */
  tools: { include?: string[]; exclude: string[] };
  /**
   * Which tools may safely be sent twice (they only read, or their effect happens once): all
   * (`true`), none (`false`, the default: nothing is known of a foreign tool) or the named ones.
   */
  idempotent: boolean | string[];
}

export interface McpStdioServer extends McpServerBase {
  transport: 'stdio';
  command: string;
  args: string[];
  /** The server's whole environment: what the config names, plus the runner's PATH unless named. */
  env: Record<string, string>;
  cwd?: string;
  /** false: the server gets an empty network namespace, as custom functions do (and is not started where none can be made). */
  network: boolean;
}

/** OAuth 2.1 client credentials for an http server that wants a token (the secret is a secret). */
export interface McpOAuthConfig {
  client_id: string;
  client_secret: string;
  /** The authorization server the credentials belong to: they are sent to no other. */
  issuer: string;
  scope?: string;
}

export interface McpHttpServer extends McpServerBase {
  transport: 'http';
  url: string;
  /** Sent with every request; values are secrets (never logged). */
  headers: Record<string, string>;
  /** Tokens from an OAuth authorization server, got and refreshed by the runner. */
  oauth?: McpOAuthConfig;
  /** Lets the server be on a loopback or private address, which the SSRF guard refuses otherwise. */
  allow_private_network: boolean;
}

export type McpServerConfig = McpStdioServer | McpHttpServer;

const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const COMMON = ['name', 'transport', 'timeout', 'tools', 'prefix', 'idempotent'];
const ALLOWED: Record<string, string[]> = {
  stdio: [...COMMON, 'command', 'args', 'env', 'cwd', 'network'],
  http: [...COMMON, 'url', 'headers', 'oauth', 'allow_private_network'],
};

/**
 * Reads and validates `mcp.servers` from the configuration file (a list of mappings, which the
 * flat key table cannot express). Header and env values are returned as secrets for redaction.
 */
export function parseMcpServers(
  raw: unknown,
  defaultTimeoutMs: number,
  path?: string,
): { servers: McpServerConfig[]; secrets: string[] } {
  if (raw === undefined || raw === null || raw === '') return { servers: [], secrets: [] };
  if (!Array.isArray(raw)) throw new ConfigError('mcp.servers', 'must be a list of servers');
  const servers = raw.map((entry, i) => parseServer(entry, `mcp.servers[${i}]`, defaultTimeoutMs));
  // the whole value, and each word of it ("Bearer <token>": the token alone is masked too)
  const secrets = servers
    .flatMap((s) =>
      s.transport === 'http'
        ? [...Object.values(s.headers), ...(s.oauth ? [s.oauth.client_secret] : [])]
        : Object.values(s.env),
    )
    .flatMap((v) => [v, ...v.split(/\s+/)])
    .filter((v, i, all) => v.length >= 4 && all.indexOf(v) === i);
  for (const s of servers)
    if (s.transport === 'stdio' && path !== undefined) s.env = { PATH: path, ...s.env };
  const seen = new Set<string>();
  servers.forEach((s, i) => {
    if (seen.has(s.name)) throw new ConfigError(`mcp.servers[${i}].name`, `'${s.name}' is used twice`);
    seen.add(s.name);
  });
  return { servers, secrets };
}

function parseServer(entry: unknown, at: string, defaultTimeoutMs: number): McpServerConfig {
  const node = mapping(entry, at);
  const name = node.name;
  if (typeof name !== 'string' || !NAME.test(name))
    throw new ConfigError(`${at}.name`, `must match ${String(NAME)}`);
  const transport = node.transport;
  if (transport !== 'stdio' && transport !== 'http')
    throw new ConfigError(`${at}.transport`, `must be stdio or http, got '${String(transport)}'`);
  for (const key of Object.keys(node)) {
    if (!ALLOWED[transport].includes(key))
      throw new ConfigError(`${at}.${key}`, `is not a setting of a ${transport} server`);
  }
  const base: McpServerBase = {
    name,
    prefix: optionalString(node.prefix, `${at}.prefix`) ?? name,
    timeout: timeoutOf(node.timeout, `${at}.timeout`, defaultTimeoutMs),
    tools: toolFilter(node.tools, `${at}.tools`),
    idempotent: idempotentTools(node.idempotent, `${at}.idempotent`),
  };
  if (!/^[A-Za-z]/.test(base.prefix)) throw new ConfigError(`${at}.prefix`, 'must start with a letter');
  if (transport === 'stdio') {
    const command = optionalString(node.command, `${at}.command`);
    if (!command) throw new ConfigError(`${at}.command`, 'is required for a stdio server');
    return {
      ...base,
      transport,
      command,
      args: stringList(node.args, `${at}.args`) ?? [],
      env: stringMap(node.env, `${at}.env`, ENV_NAME),
      cwd: optionalString(node.cwd, `${at}.cwd`),
      network: optionalBool(node.network, `${at}.network`) ?? true,
    };
  }
  const url = optionalString(node.url, `${at}.url`);
  if (!url) throw new ConfigError(`${at}.url`, 'is required for an http server');
  const checked = parseValue({ path: `${at}.url`, env: '', type: 'url', oneOf: ['http', 'https'] }, url);
  if (checked.error) throw new ConfigError(`${at}.url`, checked.error);
  return {
    ...base,
    transport,
    url,
    headers: stringMap(node.headers, `${at}.headers`, HEADER_NAME),
    ...(node.oauth === undefined || node.oauth === null ? {} : { oauth: oauthOf(node.oauth, `${at}.oauth`) }),
    allow_private_network: optionalBool(node.allow_private_network, `${at}.allow_private_network`) ?? false,
  };
}

export function mapping(value: unknown, at: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ConfigError(at, 'must be a mapping');
  return value as Record<string, unknown>;
}

export function optionalString(value: unknown, at: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ConfigError(at, 'must be a string');
  return value;
}

export function optionalBool(value: unknown, at: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ConfigError(at, 'must be true or false');
  return value;
}

function stringList(value: unknown, at: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' && typeof v !== 'number'))
    throw new ConfigError(at, 'must be a list of strings');
  return value.map(String);
}

/** Values are never shown in an error: they may be secrets. */
export function stringMap(value: unknown, at: string, keyPattern: RegExp): Record<string, string> {
  if (value === undefined || value === null) return {};
  const node = mapping(value, at);
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(node)) {
    if (!keyPattern.test(key)) throw new ConfigError(`${at}.${key}`, 'is not a valid name');
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
      throw new ConfigError(`${at}.${key}`, 'must be a string');
    out[key] = String(v);
  }
  return out;
}

export function timeoutOf(value: unknown, at: string, fallback: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const parsed = parseValue({ path: at, env: '', type: 'duration', min: 1, max: 3_600_000 }, value);
  if (parsed.error) throw new ConfigError(at, parsed.error);
  return parsed.value as number;
}

function toolFilter(value: unknown, at: string): McpServerBase['tools'] {
  if (value === undefined || value === null) return { exclude: [] };
  const node = mapping(value, at);
  for (const key of Object.keys(node)) {
    if (key !== 'include' && key !== 'exclude')
      throw new ConfigError(`${at}.${key}`, 'must be include or exclude');
  }
  return {
    include: stringList(node.include, `${at}.include`),
    exclude: stringList(node.exclude, `${at}.exclude`) ?? [],
  };
}

function idempotentTools(value: unknown, at: string): boolean | string[] {
  if (typeof value === 'boolean') return value;
  try {
    return stringList(value, at) ?? false;
  } catch {
    throw new ConfigError(at, 'must be true, false or a list of tool names');
  }
}

function oauthOf(value: unknown, at: string): McpOAuthConfig {
  const node = mapping(value, at);
  for (const key of Object.keys(node))
    if (!['client_id', 'client_secret', 'issuer', 'scope'].includes(key))
      throw new ConfigError(
        `${at}.${key}`,
        'is not an OAuth setting (client_id, client_secret, issuer, scope)',
      );
  const required = (key: string) => {
    const v = optionalString(node[key], `${at}.${key}`);
    if (!v) throw new ConfigError(`${at}.${key}`, 'is required');
    return v;
  };
  const issuer = required('issuer');
  const checked = parseValue(
    { path: `${at}.issuer`, env: '', type: 'url', oneOf: ['http', 'https'] },
    issuer,
  );
  if (checked.error) throw new ConfigError(`${at}.issuer`, checked.error);
  const scope = optionalString(node.scope, `${at}.scope`);
  return {
    client_id: required('client_id'),
    client_secret: required('client_secret'),
    issuer,
    ...(scope ? { scope } : {}),
  };
}
