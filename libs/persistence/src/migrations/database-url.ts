export type DatabaseProvider = 'sqlite' | 'postgresql';

export function providerOf(url: string): DatabaseProvider {
  return /^postgres(ql)?:/.test(url) ? 'postgresql' : 'sqlite';
}

/** `file:./data/x.db` → `./data/x.db` (relative to the working directory, as Prisma reads it). */
export function sqlitePath(url: string): string {
  return url.replace(/^file:/, '').replace(/\?.*$/, '');
}

export interface PgConnection {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

/** Discrete fields, not a connection string: adapter-pg's shadow database needs to override `database`. */
export function pgConnection(url: string): PgConnection {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: u.pathname.slice(1) || 'postgres',
  };
}
