// `npm run cluster`'s load balancer: HAProxy, round robin over the gateways, on the platform's port.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

function haproxyConfig(host, port, gatewayPorts) {
  const servers = gatewayPorts.map((p, i) => `  server gateway-${i + 1} 127.0.0.1:${p} check`);
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    // SSE streams and long runs: a response may take as long as a run.
    '  timeout client 15m',
    '  timeout server 15m',
    '  timeout tunnel 1h',
    // A request that could not reach a gateway (refused: it just died) goes to the other one.
    '  retries 3',
    '  option redispatch',
    'frontend api',
    `  bind ${host}:${port}`,
    '  default_backend gateways',
    'backend gateways',
    '  balance roundrobin',
    // /health/live, as the Kubernetes probes: /health is the whole platform's health and would
    // take every gateway out at once when any one service restarts.
    '  option httpchk GET /health/live',
    '  http-check expect status 200',
    '  default-server inter 1s fall 2 rise 1',
    ...servers,
    '',
  ].join('\n');
}

/** The program `haproxy` on `host`:`port` over the gateways' ports; its configuration written into `dir`. */
export function planBalancer(haproxy, dir, host, port, gatewayPorts) {
  const conf = join(dir, 'haproxy.cfg');
  writeFileSync(conf, haproxyConfig(host, port, gatewayPorts));
  return {
    name: 'haproxy',
    command: haproxy,
    args: ['-db', '-f', conf],
    env: process.env,
    cwd: dir,
    host: '127.0.0.1',
    port,
    dir,
  };
}
