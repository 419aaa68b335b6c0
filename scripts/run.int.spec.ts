import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@app/testing';

const REPO = REPO_ROOT;
const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * A project laid out as this one, with the real launcher: one local dependency (so `npm ci` works
 * offline), a build that talks on stdout as ours does, and a tool that prints JSON.
 */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ac-run-'));
  made.push(dir);
  cpSync(join(REPO, 'scripts/run.mjs'), join(dir, 'scripts/run.mjs'));
  cpSync(join(REPO, 'scripts/run'), join(dir, 'scripts/run'), { recursive: true });
  mkdirSync(join(dir, 'dep'));
  writeFileSync(join(dir, 'dep/package.json'), JSON.stringify({ name: 'dep', version: '1.0.0' }));
  mkdirSync(join(dir, 'libs'));
  writeFileSync(join(dir, 'libs/source.ts'), 'export const n = 1;\n');
  const build =
    "node -e \"require('fs').mkdirSync('dist',{recursive:true});" +
    "require('fs').writeFileSync('dist/tool.js','console.log(JSON.stringify({ok:process.argv.slice(2)}))')\"" +
    " && echo built >> builds.txt && sleep 1 && echo 'console: 1 script(s), 34 KB gzipped'";
  const manifest = {
    name: 'p',
    version: '1.0.0',
    private: true,
    dependencies: { dep: 'file:./dep' },
    scripts: { build, tool: 'node scripts/run.mjs --build dist/tool.js' },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  const lock = spawnSync('npm', ['install', '--package-lock-only', '--offline'], {
    cwd: dir,
    encoding: 'utf8',
  });
  expect(lock.status, lock.stderr).toBe(0);
  return dir;
}

const npmRun = (dir: string, ...args: string[]) =>
  spawnSync('npm', ['run', '-s', 'tool', '--', ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });

describe('scripts/run.mjs, the launcher of npm start, npm test and the tools', () => {
  it('installs a fresh clone, builds once, and keeps stdout for the tool', () => {
    const dir = project();
    const first = npmRun(dir, 'a', '--json');
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ ok: ['a', '--json'] });
    expect(first.stderr).toContain('node_modules is missing: npm ci');
    expect(first.stderr).toContain('console: 1 script(s)');

    const again = npmRun(dir, 'b');
    expect(again).toMatchObject({ status: 0, stdout: '{"ok":["b"]}\n', stderr: '' });
  });

  it('rebuilds when a source is newer than the build, and reinstalls when the lockfile changed', () => {
    const dir = project();
    expect(npmRun(dir).status).toBe(0);
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(dir, 'libs/source.ts'), later, later);
    expect(npmRun(dir).stderr).toContain('console: 1 script(s)');

    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
    lock.packages.dep.version = '1.0.1';
    writeFileSync(join(dir, 'dep/package.json'), JSON.stringify({ name: 'dep', version: '1.0.1' }));
    writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock));
    const reinstalled = npmRun(dir);
    expect(reinstalled.status, reinstalled.stderr).toBe(0);
    expect(reinstalled.stderr).toContain('dep is 1.0.0, package-lock.json asks for 1.0.1: npm ci');
  });

  it('builds once when two commands start together (the README starts two)', async () => {
    const dir = project();
    expect(npmRun(dir).status).toBe(0);
    const earlier = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'dist/.built'), earlier, earlier); // a source changed after that build
    const both = await Promise.all(
      ['a', 'b'].map(
        (arg) =>
          new Promise<{ code: number | null; stdout: string }>((resolve) => {
            const child = spawn('npm', ['run', '-s', 'tool', '--', arg], { cwd: dir });
            let stdout = '';
            child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
            child.once('close', (code) => resolve({ code, stdout }));
          }),
      ),
    );
    expect(both).toEqual([
      { code: 0, stdout: '{"ok":["a"]}\n' },
      { code: 0, stdout: '{"ok":["b"]}\n' },
    ]);
    expect(readFileSync(join(dir, 'builds.txt'), 'utf8')).toBe('built\nbuilt\n');
  });

  it('never runs npm ci through a node_modules that is a link (a worktree sharing one)', () => {
    const shared = project();
    expect(npmRun(shared).status).toBe(0);
    const dir = project();
    symlinkSync(join(shared, 'node_modules'), join(dir, 'node_modules'));
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
    lock.packages.dep.version = '2.0.0';
    writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock));
    const run = npmRun(dir);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/asks for 2\.0\.0, but node_modules links to \S+: not reinstalling/);
    expect(JSON.parse(readFileSync(join(shared, 'node_modules/.package-lock.json'), 'utf8'))).toMatchObject({
      packages: { dep: { version: '1.0.0' } },
    });
  });
});
