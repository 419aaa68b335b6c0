// Setup of the unit tier: a unit test runs without servers, so anything that would open a socket,
// listen on a port or start a process fails at once, naming the rule. A test that needs real NATS,
// Redis, a database file or a child process belongs to the integration tier (`*.int.spec.ts`).
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const refuse = (what: string) => () => {
  throw new Error(`a unit test may not ${what}: name the file *.int.spec.ts to run it with real servers`);
};

net.Socket.prototype.connect = refuse('open a socket') as never;
net.Server.prototype.listen = refuse('listen on a port') as never;
for (const name of ['spawn', 'exec', 'execFile', 'fork', 'spawnSync', 'execSync', 'execFileSync'] as const) {
  (childProcess as Record<string, unknown>)[name] = refuse(`start a process (${name})`);
}
// Named imports (`import { spawn } from 'node:child_process'`) see the patched functions too.
syncBuiltinESMExports();
