// `npm run cluster`'s stores: a PostgreSQL of its own (initdb in the cluster's folder) and a Redis
// that keeps nothing on disk, each a process spec for the supervisor.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { which } from './programs.mjs';

/** The newest installed PostgreSQL's programs (Debian keeps them out of PATH). */
export function postgresBin() {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  const dir = versions.map((v) => join(base, v, 'bin')).find((d) => existsSync(join(d, 'initdb')));
  if (dir) return dir;
  const initdb = which('initdb');
  if (initdb) return join(initdb, '..');
  throw new Error("the cluster needs PostgreSQL's initdb: apt-get install postgresql");
}

/** Runs `args` as the postgres user when this is root (initdb and postgres refuse root). */
function asPostgres(args) {
  return process.getuid?.() === 0
    ? ['setpriv', '--reuid=postgres', '--regid=postgres', '--init-groups', ...args]
    : args;
}

/** Creates the database files in `dir`/postgres; returns the server's command line on `port`. */
function initPostgres(bin, dir, port) {
  const data = join(dir, 'postgres');
  mkdirSync(data, { mode: 0o700 });
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(data, uid, gid);
  }
  const [command, ...args] = asPostgres([
    join(bin, 'initdb'),
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
  ]);
  execFileSync(command, args, { stdio: 'ignore' });
  const statements = existsSync(join(bin, '..', 'lib', 'pg_stat_statements.so'))
    ? ['-c', 'shared_preload_libraries=pg_stat_statements']
    : [];
  return asPostgres([
    join(bin, 'postgres'),
    '-D',
    data,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-k',
    data,
    '-c',
    'max_connections=300',
    // A process killed here keeps its writes in the OS's cache: only a machine crash could lose them.
    '-c',
    'fsync=off',
    ...statements,
  ]);
}

/** A new PostgreSQL (its files created now) on `port`; returns its spec and its URL. */
export function planPostgres(dir, port) {
  const [command, ...args] = initPostgres(postgresBin(), dir, port);
  return {
    server: { name: 'postgres', command, args, env: process.env, cwd: dir, host: '127.0.0.1', port, dir },
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
  };
}

/** The program `redis` on `port`, keeping nothing: a restart starts empty, as a cache's restart does in production. */
export function planRedis(redis, dir, port) {
  return {
    name: 'redis',
    command: redis,
    args: [
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--logfile',
      join(dir, 'redis.log'),
    ],
    env: process.env,
    cwd: dir,
    host: '127.0.0.1',
    port,
    dir,
  };
}
