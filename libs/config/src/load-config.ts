import { existsSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { CONFIG_KEYS, type KeySpec } from './config-keys';
import { ConfigError, type ConfigProblem } from './config.error';
import { parseA2aAgents } from './a2a-config';
import { parseMcpServers } from './mcp-config';
import { exampleFor, parseValue } from './parse-value';
import { parsePricing } from './pricing-config';
import type { PlatformConfig } from './platform-config';

export type Env = Record<string, string | undefined>;

const DEFAULT_FILE = 'config/agentchassis.yaml';

/**
 * Reads the YAML file (path from AC_CONFIG, else config/agentchassis.yaml when present), substitutes
 * `${VAR}` / `${VAR:-default}`, applies environment overrides and validates every key.
 * Throws one ConfigError listing every invalid value, each with its key and a valid example.
 */
export function loadConfig(env: Env = process.env): PlatformConfig {
  const file = readFileTree(env);
  const config = emptySections();
  const secrets: string[] = [];
  const problems: ConfigProblem[] = [];
  for (const spec of CONFIG_KEYS as readonly KeySpec[]) {
    const fromEnv = env[spec.env] ?? env[`AC_${spec.path.replace(/\./g, '__').toUpperCase()}`];
    const fromFile = getPath(file, spec.path);
    const raw = fromEnv ?? (fromFile === '' ? undefined : fromFile) ?? spec.default;
    if (raw === undefined || raw === null || raw === '') continue;
    const { value, error } = parseValue(spec, raw);
    if (error) {
      const example = exampleFor(spec);
      problems.push({
        key: `${spec.env} (${spec.path})`,
        detail: example ? `${error}; e.g. ${example}` : error,
      });
      continue;
    }
    setPath(config, spec.path, value);
    if (spec.secret) secrets.push(...secretParts(String(value)));
  }
  let mcp: ReturnType<typeof parseMcpServers> = { servers: [], secrets: [] };
  try {
    mcp = parseMcpServers(
      getPath(file, 'mcp.servers'),
      (config.functions as { default_timeout: number }).default_timeout,
      env.PATH,
    );
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.push(...err.problems);
  }
  let a2a: ReturnType<typeof parseA2aAgents> = { agents: [], secrets: [] };
  try {
    a2a = parseA2aAgents(
      getPath(file, 'a2a.agents'),
      (config.functions as { default_timeout: number }).default_timeout,
    );
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.push(...err.problems);
  }
  const { pricing, problems: pricingProblems } = parsePricing(file.pricing);
  problems.push(...pricingProblems);
  if (problems.length > 0) throw new ConfigError(problems);
  setPath(config, 'mcp.servers', mcp.servers);
  setPath(config, 'a2a.agents', a2a.agents);
  config.pricing = pricing;
  secrets.push(...mcp.secrets, ...a2a.secrets);
  config.sections = Object.fromEntries(Object.entries(file).filter(([k]) => !isKnownSection(k)));
  config.secrets = secrets;
  return config as unknown as PlatformConfig;
}

function readFileTree(env: Env): Record<string, unknown> {
  const path = env.AC_CONFIG ?? (existsSync(DEFAULT_FILE) ? DEFAULT_FILE : undefined);
  if (!path) return {};
  if (!existsSync(path)) throw new ConfigError('AC_CONFIG', `file '${path}' does not exist`);
  let tree: unknown;
  try {
    tree = parseYaml(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(
      'AC_CONFIG',
      `'${path}' is not valid YAML: ${(err as Error).message.split('\n')[0]}`,
    );
  }
  if (tree === null || tree === undefined) return {};
  if (typeof tree !== 'object' || Array.isArray(tree)) {
    throw new ConfigError('AC_CONFIG', `'${path}' must contain a mapping at the top level`);
  }
  return substituteEnv(tree, env) as Record<string, unknown>;
}

function substituteEnv(node: unknown, env: Env): unknown {
  if (typeof node === 'string') {
    return node.replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
      (_, name: string, fallback?: string) => env[name] ?? fallback ?? '',
    );
  }
  if (Array.isArray(node)) return node.map((item) => substituteEnv(item, env));
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, substituteEnv(v, env)]));
  }
  return node;
}

/** Every section of the key table, empty: a section none of whose keys is set is still an object. */
function emptySections(): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const { path } of CONFIG_KEYS) {
    let node = config;
    for (const part of path.split('.').slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
  }
  return config;
}

function isKnownSection(name: string): boolean {
  return name === 'pricing' || CONFIG_KEYS.some((spec) => spec.path.startsWith(`${name}.`));
}

function getPath(tree: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((node, part) => {
    return node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  }, tree);
}

function setPath(tree: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = tree;
  for (const part of parts.slice(0, -1)) {
    node[part] ??= {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]] = value;
}

/** A secret URL's password is what must be masked, not the whole URL. */
function secretParts(value: string): string[] {
  try {
    const url = new URL(value);
    if (url.password) return [decodeURIComponent(url.password), url.password];
    if (url.protocol === 'file:') return [];
  } catch {
    // not a URL: the whole value is the secret
  }
  return value.length >= 4 ? [value] : [];
}
