// The command line of `npm start -- ...`: `--scale <service>=<n>` runs n replicas of a service;
// `--no-build` runs what is in dist as it is.
import { parseArgs } from 'node:util';

export const SERVICES = ['gateway', 'agent-executor', 'function-runner', 'scheduler'];
export const MAX_REPLICAS = 16;
const USAGE = 'usage: npm start -- [--scale <service>=<n>]... [--no-build]';
const HELP = [
  USAGE,
  '',
  'Builds what changed, migrates the database and runs the four services in the foreground (Ctrl-C stops).',
  `  --scale <service>=<n>   run n replicas (1 to ${MAX_REPLICAS}) of ${SERVICES.filter((s) => s !== 'gateway').join(', ')}`,
  '  --no-build              run what is in dist as it is',
].join('\n');

export class UsageError extends Error {}

/**
 * Returns whether to build and how many replicas of each service to run, or `{ help }` for --help;
 * throws a one-line UsageError.
 */
export function parseStartArgs(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        scale: { type: 'string', multiple: true },
        'no-build': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new UsageError(`${err.message.split('\n')[0]} (${USAGE})`);
  }
  if (values.help) return { help: HELP };
  const replicas = Object.fromEntries(SERVICES.map((name) => [name, 1]));
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
    if (name === 'gateway' && count !== '1') {
      throw new UsageError(
        `--scale ${spec}: npm start runs one gateway, as it listens on PORT (behind a load balancer, run more)`,
      );
    }
    replicas[name] = Number(count);
  }
  return { build: !values['no-build'], replicas };
}
