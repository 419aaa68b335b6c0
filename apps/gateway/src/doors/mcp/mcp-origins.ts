import type { PlatformConfig } from '@app/config';
import { AppError } from '@app/contracts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * DNS-rebinding protection for `/mcp`, as the MCP specification requires. A browser led to the
 * gateway under a foreign name sends that name as `Host` (and as `Origin`): with authentication
 * off, only the gateway's own names are served (loopback, `gateway.host`, `gateway.public_url`,
 * the hosts of `gateway.allowed_origins`). Any `Origin` must be the gateway's own or allowed.
 * With API keys on, a page cannot make a request count without a key it does not have; the
 * `Origin` check still applies.
 */
export function checkOrigin(
  config: PlatformConfig,
  request: { host?: string; origin?: string; protocol: string },
): void {
  const allowed = config.gateway.allowed_origins;
  const host = request.host?.toLowerCase() ?? '';
  if (!config.security.auth && !ownHosts(config).has(hostname(host)))
    throw new AppError(
      'forbidden',
      `Host '${host.slice(0, 100)}' is not this server's: refused (DNS-rebinding protection)`,
    );
  const origin = request.origin;
  if (!origin || allowed.includes('*') || allowed.includes(origin)) return;
  let originHost: string;
  try {
    originHost = new URL(origin).host.toLowerCase();
  } catch {
    throw new AppError('forbidden', 'the Origin header is not a URL');
  }
  if (originHost !== host)
    throw new AppError(
      'forbidden',
      `Origin '${origin.slice(0, 100)}' may not call /mcp: add it to ALLOWED_ORIGINS (gateway.allowed_origins)`,
    );
}

function ownHosts(config: PlatformConfig): Set<string> {
  const hosts = new Set(LOOPBACK);
  if (config.gateway.host && config.gateway.host !== '0.0.0.0' && config.gateway.host !== '::')
    hosts.add(config.gateway.host.toLowerCase());
  for (const url of [config.gateway.public_url, ...config.gateway.allowed_origins])
    if (url && url !== '*') hosts.add(hostname(safeHost(url)));
  return hosts;
}

function safeHost(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
}

/** A Host header without its port. */
function hostname(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.split(':')[0];
}
