// Runs the platform's processes: prefixed logs, restarts with backoff, a stop in stages.
import { spawn } from 'node:child_process';
import { Backoff } from './backoff.mjs';

const COLORS = [36, 35, 33, 32, 34, 31];
const tty = process.stdout.isTTY;
const seconds = (ms) => `${Math.round(ms / 100) / 10} s`;
const OUTPUT_DRAIN_MS = 500;

/** Resolves once the child's stdout and stderr have ended, or after `maxMs`. */
function drained(child, maxMs) {
  const ended = (stream) =>
    stream.readableEnded ? Promise.resolve() : new Promise((resolve) => stream.once('close', resolve));
  let timer;
  return Promise.race([
    Promise.all([ended(child.stdout), ended(child.stderr)]),
    new Promise((resolve) => (timer = setTimeout(resolve, maxMs))),
  ]).finally(() => clearTimeout(timer));
}

export function log(message) {
  console.log(`agentchassis: ${message}`);
}

/**
 * One supervised process. Each runs in its own process group (detached): a Ctrl-C in the terminal
 * reaches only the supervisor, which stops the processes in order; a forced stop kills the group,
 * sandboxes included.
 */
class Supervised {
  constructor(spec, supervisor) {
    this.spec = spec;
    this.supervisor = supervisor;
    this.backoff = new Backoff(supervisor.policy);
    this.restarts = 0;
    this.lastLine = '';
    this.exited = Promise.resolve();
  }

  get running() {
    return this.child !== undefined;
  }

  start() {
    const { command, args, env, cwd, label } = this.spec;
    this.startedAt = Date.now();
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.child = child;
    this.exited = new Promise((resolve) => {
      let done = false;
      const finish = (code, signal) => {
        if (done) return;
        done = true;
        this.child = undefined;
        resolve();
        this.onExit(code, signal);
      };
      // A process's last lines may still be in its pipes when it exits: read them first, but do
      // not wait on a grandchild that inherited the pipes and lives on.
      child.once(
        'exit',
        (code, signal) => void drained(child, OUTPUT_DRAIN_MS).then(() => finish(code, signal)),
      );
      child.once('error', (err) => {
        this.lastLine = err.message;
        finish(null, null);
      });
    });
    child.stdin.on('error', () => undefined);
    prefixLines(child.stdout, label, process.stdout, (line) => (this.lastLine = line));
    prefixLines(child.stderr, label, process.stderr, (line) => (this.lastLine = line));
  }

  onExit(code, signal) {
    if (this.supervisor.stopping) return;
    const uptime = Date.now() - this.startedAt;
    const delay = this.backoff.onExit(uptime);
    this.restarts += 1;
    const how = signal ?? `code ${code}`;
    log(
      `${this.spec.name} exited (${how}) after ${seconds(uptime)}; restart ${this.restarts} in ${seconds(delay)}`,
    );
    if (this.backoff.justStartedLooping) {
      log(
        `${this.spec.name} is crash-looping: it exited within ${seconds(this.backoff.policy.quickExitMs)} of ` +
          `starting ${this.backoff.quickExits} times in a row; its last line: ${JSON.stringify(this.lastLine)}; ` +
          `retrying up to every ${seconds(this.backoff.policy.maxMs)} (Ctrl-C stops)`,
      );
    }
    this.timer = setTimeout(() => this.start(), delay);
  }

  /** SIGTERM, then SIGKILL to the group if it is still running after `graceMs`. */
  async terminate(graceMs) {
    clearTimeout(this.timer);
    if (!this.child) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => {
      log(`${this.spec.name} did not stop within ${seconds(graceMs)}: killing it`);
      this.kill();
    }, graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  kill() {
    clearTimeout(this.timer);
    if (!this.child) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      this.child?.kill('SIGKILL');
    }
  }
}

export class Supervisor {
  constructor({ policy } = {}) {
    this.policy = policy;
    this.processes = [];
    this.stopping = false;
  }

  /** spec: { name, command, args, env, cwd }; the labels pad the names to a common width. */
  add(specs) {
    const width = Math.max(...specs.map((s) => s.name.length));
    const added = specs.map((spec) => {
      const text = `${spec.name.padEnd(width)} |`;
      const color = COLORS[this.processes.length % COLORS.length];
      const p = new Supervised({ ...spec, label: tty ? `\x1b[${color}m${text}\x1b[0m` : text }, this);
      this.processes.push(p);
      return p;
    });
    return added;
  }

  start(processes) {
    for (const p of processes) if (!this.stopping) p.start();
  }

  get pids() {
    return this.processes.filter((p) => p.running).map((p) => p.child.pid);
  }

  /** Stops stage by stage (each a list of names, a name matching its replicas too). */
  async stop(stages, graceMs) {
    this.stopping = true;
    for (const stage of stages) {
      const members = this.processes.filter((p) => stage.includes(p.spec.name.split('#')[0]));
      await Promise.all(members.map((p) => p.terminate(graceMs)));
    }
    await Promise.all(this.processes.map((p) => p.terminate(graceMs)));
  }

  /** The second signal: everything at once, no grace. */
  killAll() {
    this.stopping = true;
    for (const p of this.processes) p.kill();
  }
}

function prefixLines(stream, label, out, onLine) {
  let rest = '';
  stream.on('data', (chunk) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      out.write(`${label} ${line}\n`);
      if (line.trim()) onLine(line);
    }
  });
  stream.on('end', () => rest && out.write(`${label} ${rest}\n`));
}
