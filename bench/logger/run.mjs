// CPU a typical info line costs the logger, stdout included. Run after `npm run build`:
//   node_modules/.bin/node bench/logger/run.mjs | cat > /dev/null
// (stdout is the log; the result goes to stderr). Each format runs in a process of its own:
// 100,000 lines, 10 per event-loop turn as a busy service logs them, CPU counted until the
// process exits (so lines still pending are written and counted).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LINES = 100_000;
const PER_TURN = 10;
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

if (process.argv[2] === '--child') logLines(process.argv[3]);
else for (const format of ['json', 'text']) measure(format);

function measure(format) {
  execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', format], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

function logLines(format) {
  const { Logger, Redactor } = createRequire(import.meta.url)(join(root, 'dist/libs/observability/src'));
  const redactor = new Redactor(['a-configured-secret']);
  const logger = new Logger({ service: 'gateway', level: 'info', format, redactor }).child({
    run_id: 'run_1',
  });
  const start = process.cpuUsage();
  let left = LINES;
  const turn = () => {
    for (let i = 0; i < PER_TURN; i++)
      logger.info('function call finished', { name: 'send_message', ms: 12, status: 'success' });
    left -= PER_TURN;
    if (left > 0) setImmediate(turn);
  };
  turn();
  process.on('exit', () => {
    const { user, system } = process.cpuUsage(start);
    process.stderr.write(
      `${format}: ${((user + system) / LINES).toFixed(2)} µs CPU a line (${LINES} lines)\n`,
    );
  });
}
