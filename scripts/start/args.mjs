// The command line of `npm start -- ...`: `--scale <service>=<n>` runs n replicas of a service;
// `--no-build` runs what is in dist as it is; `--cluster` (`npm run cluster`) runs the production
// shape (scripts/start/cluster.mjs), two gateways behind a load balancer among it.
import { parseArgs } from 'node:util';

export const SERVICES = ['gateway', 'agent-executor', 'function-runner', 'scheduler'];
export const MAX_REPLICAS = 16;
/** What `--cluster` runs unless `--scale` says otherwise. */
export const CLUSTER_REPLICAS = { gateway: 2, 'agent-executor': 2, 'function-runner': 3, scheduler: 2 };
const USAGE = 'usage: npm start -- [--scale <service>=<n>]... [--no-build] [--cluster]';
const HELP = [
  USAGE,
  '',
  'Builds what changed, migrates the database and runs the four services in the foreground (Ctrl-C stops).',
  `  --scale <service>=<n>   run n replicas (1 to ${MAX_REPLICAS}) of ${SERVICES.filter((s) => s !== 'gateway').join(', ')} (of the gateway too with --cluster)`,
  '  --no-build              run what is in dist as it is',
  '  --cluster               the production shape: 3 NATS nodes, own PostgreSQL and Redis, HAProxy over 2 gateways (npm run cluster)',
].join('\n');

export class UsageError extends Error {}

/**
 * Returns whether to build, whether to run as a cluster and how many replicas of each service to
 * run, or `{ help }` for --help; throws a one-line UsageError.
 */
export function parseStartArgs(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        scale: { type: 'string', multiple: true },
        'no-build': { type: 'boolean' },
        cluster: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new UsageError(`${err.message.split('\n')[0]} (${USAGE})`);
  }
  if (values.help) return { help: HELP };
  const cluster = Boolean(values.cluster);
  const replicas = cluster ? { ...CLUSTER_REPLICAS } : Object.fromEntries(SERVICES.map((name) => [name, 1]));
  for (const spec of values.scale ?? []) {
    const match = /^([^=]+)=(.*)$/.exec(spec);
    if (!match)
      throw new UsageError(`--scale ${spec}: expected <service>=<n>, e.g. --scale function-runner=3`);
    const [, name, count] = match;
    if (!SERVICES.includes(name)) {
      throw new UsageError(`--scale ${spec}: unknown service '${name}' (one of ${SERVICES.join(', ')})`);
    }
    if (!/^\d+$/.test(count) || Number(count) < 1 || Number(count) > MAX_REPLICAS) {
      throw new UsageError(
        `--scale ${spec}: the number of replicas must be a whole number from 1 to ${MAX_REPLICAS}`,
      );
    }
    if (name === 'gateway' && count !== '1' && !cluster) {
      throw new UsageError(
        `--scale ${spec}: npm start runs one gateway, as it listens on PORT (npm run cluster runs more, behind a load balancer)`,
      );
    }
    replicas[name] = Number(count);
  }
  return { build: !values['no-build'], cluster, replicas };
}
