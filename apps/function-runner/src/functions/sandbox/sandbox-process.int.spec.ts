import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectEventually } from '@app/testing';
import { Logger } from '@app/observability';
import { sandboxScript, SandboxProcess } from './sandbox-process';

/** The sandbox processes this test process started, from the process table. */
function sandboxPids(): number[] {
  return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes('sandbox.worker'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

describe('a sandbox process stopped from outside (real child process)', () => {
  async function stopWith(signal: NodeJS.Signals) {
    const lines: string[] = [];
    const logger = new Logger({
      service: 'test',
      level: 'debug',
      format: 'json',
      write: (l) => lines.push(l),
    });
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'ac-sandbox-stop-')));
    const before = new Set(sandboxPids());
    const sandbox = await SandboxProcess.spawn({
      script: sandboxScript(),
      dir,
      memoryMb: 48,
      prefix: [],
      logger,
    });
    const pid = await expectEventually(() => {
      const started = sandboxPids().filter((p) => !before.has(p));
      expect(started).toHaveLength(1);
      return started[0];
    });
    process.kill(pid, signal);
    await sandbox.exited;
    return lines.map((line) => JSON.parse(line) as { level: string; msg: string });
  }

  it('logs a stop by SIGINT (Ctrl-C reaching the process group) as INFO', async () => {
    expect(await stopWith('SIGINT')).toContainEqual(
      expect.objectContaining({ level: 'info', msg: 'sandbox process stopped: it was ended by SIGINT' }),
    );
  });

  it('still warns about a sandbox killed with SIGKILL', async () => {
    expect(await stopWith('SIGKILL')).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: 'sandbox process stopped: it was ended by SIGKILL' }),
    );
  });
});
