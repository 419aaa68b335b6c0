import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { connectMigrated, type Db } from '@app/persistence';
import { migratedSqliteUrl } from '@app/testing';
import { cacheStatements } from './sqlite-statements';

describe('cacheStatements (real SQLite)', () => {
  const open = () => {
    const db = new Database(':memory:');
    const prepare = vi.spyOn(db, 'prepare');
    cacheStatements(db as never, 3);
    db.prepare('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)').bind([]).run();
    return { db, prepare };
  };

  it('prepares a statement once and runs it with each call’s own arguments', () => {
    const { db, prepare } = open();
    for (const [id, name] of [
      [1, 'a'],
      [2, 'b'],
    ])
      db.prepare('INSERT INTO t (id, name) VALUES (?, ?)').bind([id, name]).run();
    const select = (id: number) => db.prepare('SELECT id, name FROM t WHERE id = ?').bind([id]);
    expect(select(1).raw(true).all([])).toEqual([[1, 'a']]);
    expect(select(2).raw(true).all([])).toEqual([[2, 'b']]);
    expect(select(2).reader).toBe(true);
    expect(select(2).columns()).toMatchObject([{ name: 'id' }, { name: 'name' }]);
    expect(prepare).toHaveBeenCalledTimes(3); // create, insert, select
  });

  it('runs argument-less statements, such as BEGIN and COMMIT, and keeps their effects', () => {
    const { db } = open();
    db.prepare('BEGIN').run();
    db.prepare('INSERT INTO t (id, name) VALUES (?, ?)').bind([7, 'x']).run();
    db.prepare('ROLLBACK').run();
    expect(db.prepare('SELECT count(*) AS n FROM t').bind([]).raw(true).all([])).toEqual([[0]]);
  });

  it('forgets the oldest statement beyond its size and still answers it afterwards', () => {
    const { db, prepare } = open();
    for (const sql of ['SELECT 1', 'SELECT 2', 'SELECT 3', 'SELECT 4', 'SELECT 1'])
      expect(db.prepare(sql).bind([]).raw(true).all([])).toEqual([[Number(sql.slice(-1))]]);
    // create, 1, 2; 3 evicts create; 4 evicts 1; so 1 is prepared again
    expect(prepare).toHaveBeenCalledTimes(6);
  });

  it('lets an error surface from the call that caused it', () => {
    const { db } = open();
    const insert = () => db.prepare('INSERT INTO t (id, name) VALUES (?, ?)').bind([1, 'a']).run();
    insert();
    expect(insert).toThrow(/UNIQUE constraint failed/);
  });
});

describe('Prisma over the cached SQLite adapter', () => {
  let db: Db;
  afterAll(() => db?.$disconnect());

  it('keeps reads, transactions and constraint errors as Prisma defines them', async () => {
    db = (await connectMigrated(await migratedSqliteUrl())).db;
    for (let i = 0; i < 3; i++) {
      await db.$transaction([
        db.session.create({ data: { id: `s${i}`, owner: 'p' } }),
        db.message.create({
          data: { id: `m${i}`, session_id: `s${i}`, seq: 1, role: 'user', content: `hi ${i}` },
        }),
      ]);
    }
    const messages = await db.message.findMany({ where: { seq: 1 }, orderBy: { id: 'asc' } });
    expect(messages.map((m) => m.content)).toEqual(['hi 0', 'hi 1', 'hi 2']);
    const duplicate = await db.session.create({ data: { id: 's1', owner: 'p' } }).catch((e: unknown) => e);
    expect((duplicate as { code?: string }).code).toBe('P2002');
    const failed = await db
      .$transaction([
        db.session.create({ data: { id: 's9', owner: 'p' } }),
        db.session.create({ data: { id: 's0', owner: 'p' } }),
      ])
      .catch((e: unknown) => e);
    expect((failed as { code?: string }).code).toBe('P2002');
    expect(await db.session.findUnique({ where: { id: 's9' } })).toBeNull();
  });
});
