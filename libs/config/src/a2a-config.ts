import { ConfigError } from './config.error';
import { mapping, optionalBool, optionalString, stringMap, timeoutOf } from './mcp-config';
import { parseValue } from './parse-value';

/** A remote A2A agent the function-runner mounts as the function `a2a_<name>`. */
export interface A2aAgentConfig {
  /** Unique; the function is `a2a_<name>`. */
  name: string;
  /** The agent's base URL: its card is `<url>/.well-known/agent-card.json` (or the card's own URL). */
  url: string;
  /** Sent with every request; values are secrets (never logged). */
  headers: Record<string, string>;
  /** One call, start to the task's end or pause (ms). */
  timeout: number;
  /** Lets the agent be on a loopback or private address, which the SSRF guard refuses otherwise. */
  allow_private_network: boolean;
}

const NAME = /^[a-z][a-z0-9_]{0,31}$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;
const ALLOWED = ['name', 'url', 'auth', 'headers', 'timeout', 'allow_private_network'];

/**
 * Reads and validates `a2a.agents` (a list of mappings). `auth: {bearer: <token>}` is sent as
 * `Authorization: Bearer <token>`; `headers` as given. Their values are returned as secrets.
 */
export function parseA2aAgents(
  raw: unknown,
  defaultTimeoutMs: number,
): { agents: A2aAgentConfig[]; secrets: string[] } {
  if (raw === undefined || raw === null || raw === '') return { agents: [], secrets: [] };
  if (!Array.isArray(raw)) throw new ConfigError('a2a.agents', 'must be a list of agents');
  const agents = raw.map((entry, i) => parseAgent(entry, `a2a.agents[${i}]`, defaultTimeoutMs));
  const seen = new Set<string>();
  agents.forEach((agent, i) => {
    if (seen.has(agent.name)) throw new ConfigError(`a2a.agents[${i}].name`, `'${agent.name}' is used twice`);
    seen.add(agent.name);
  });
  const secrets = agents
    .flatMap((a) => Object.values(a.headers))
    .flatMap((v) => [v, ...v.split(/\s+/)])
    .filter((v, i, all) => v.length >= 4 && all.indexOf(v) === i);
  return { agents, secrets };
}

function parseAgent(entry: unknown, at: string, defaultTimeoutMs: number): A2aAgentConfig {
  const node = mapping(entry, at);
  for (const key of Object.keys(node))
    if (!ALLOWED.includes(key))
      throw new ConfigError(`${at}.${key}`, `is not a setting of an A2A agent (${ALLOWED.join(', ')})`);
  const name = node.name;
  if (typeof name !== 'string' || !NAME.test(name))
    throw new ConfigError(`${at}.name`, `must match ${String(NAME)}`);
  const url = optionalString(node.url, `${at}.url`);
  if (!url) throw new ConfigError(`${at}.url`, 'is required');
  const checked = parseValue({ path: `${at}.url`, env: '', type: 'url', oneOf: ['http', 'https'] }, url);
  if (checked.error) throw new ConfigError(`${at}.url`, checked.error);
  const headers = stringMap(node.headers, `${at}.headers`, HEADER_NAME);
  const auth = node.auth === undefined || node.auth === null ? {} : mapping(node.auth, `${at}.auth`);
  for (const key of Object.keys(auth))
    if (key !== 'bearer') throw new ConfigError(`${at}.auth.${key}`, 'is not a kind of auth (bearer)');
  const bearer = optionalString(auth.bearer, `${at}.auth.bearer`);
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  return {
    name,
    url,
    headers,
    timeout: timeoutOf(node.timeout, `${at}.timeout`, defaultTimeoutMs),
    allow_private_network: optionalBool(node.allow_private_network, `${at}.allow_private_network`) ?? false,
  };
}
