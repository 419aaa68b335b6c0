// Raw writes on the writer's own connection, read back through Prisma, against both real databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectMigrated,
  constraintViolation,
  type Db,
  openSqlWriter,
  prismaWriter,
  sql,
  type SqlWriter,
} from '@app/persistence';
import { expectEventually, MIGRATED_DATABASES, REPO_ROOT } from '@app/testing';

const insertSession = (id: string, at: Date) =>
  sql`INSERT INTO "Session" ("id", "owner", "agent", "title", "summary_upto", "created_at", "updated_at")
    VALUES (${id}, 'alice', 'default', ${`title of ${id}`}, 0, ${at}, ${at})`;

describe.each(MIGRATED_DATABASES)('SqlWriter on $name', ({ name, create }) => {
  let db: Db;
  let drop: () => Promise<void>;
  let writer: SqlWriter;

  beforeAll(async () => {
    const database = await create();
    drop = database.drop;
    db = (await connectMigrated(database.url, REPO_ROOT)).db;
    writer = openSqlWriter(database.url, db);
  });
  afterAll(async () => {
    await writer?.close();
    await db?.$disconnect();
    await drop?.();
  });

  it('runs statements in one transaction and stores dates as Prisma reads them', async () => {
    const at = new Date('2026-03-04T05:06:07.089Z');
    const changed = await writer.transaction([
      insertSession('w1', at),
      insertSession('w2', at),
      sql`UPDATE "Session" SET "summary_upto" = ${7} WHERE "id" IN (${'w1'}, ${'w2'})`,
    ]);
    expect(changed).toEqual([1, 1, 2]);
    const rows = await db.session.findMany({ where: { id: { in: ['w1', 'w2'] } }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => [r.id, r.title, r.summary_upto, r.created_at.toISOString()])).toEqual([
      ['w1', 'title of w1', 7, at.toISOString()],
      ['w2', 'title of w2', 7, at.toISOString()],
    ]);
  });

  it('stores each instant of a batch as its own, the same one twice in a row and back', async () => {
    const [a, b] = [new Date('2026-03-04T05:06:07.089Z'), new Date('2026-03-04T05:06:07.090Z')];
    await writer.transaction([insertSession('t1', a), insertSession('t2', b), insertSession('t3', a)]);
    const rows = await db.session.findMany({
      where: { id: { in: ['t1', 't2', 't3'] } },
      orderBy: { id: 'asc' },
    });
    expect(rows.map((r) => r.updated_at.toISOString())).toEqual([a, b, a].map((d) => d.toISOString()));
    const invalid = await writer
      .transaction([insertSession('t4', new Date(Number.NaN))])
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(Error);
  });

  it('applies none of the statements when one fails, and names the broken constraint', async () => {
    const error = await writer
      .transaction([insertSession('w3', new Date()), insertSession('w1', new Date())])
      .catch((e: unknown) => e);
    expect(constraintViolation(error)).toBe('unique');
    expect(await db.session.findUnique({ where: { id: 'w3' } })).toBeNull();
    // The connection is usable afterwards: no transaction left open.
    await writer.transaction([insertSession('w4', new Date())]);
    expect(await db.session.count({ where: { id: 'w4' } })).toBe(1);
  });

  it('names a broken foreign key', async () => {
    const error = await writer
      .transaction([
        sql`INSERT INTO "Message" ("id", "session_id", "seq", "role", "content", "tokens", "created_at")
          VALUES ('m1', 'no-such-session', 1, 'user', 'hi', 1, ${new Date()})`,
      ])
      .catch((e: unknown) => e);
    expect(constraintViolation(error)).toBe('foreign_key');
  });

  it('stays out of a Prisma transaction open meanwhile, and waits for it', async () => {
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const rolledBack = db
      .$transaction(async (tx) => {
        await tx.$executeRaw(insertSession('w5', new Date()));
        inside();
        await gate;
        throw new Error('roll back');
      })
      .catch((e: unknown) => e);
    await entered;
    const write = writer.transaction([insertSession('w6', new Date())]);
    release();
    await write;
    expect(await rolledBack).toMatchObject({ message: 'roll back' });
    expect(await db.session.count({ where: { id: { in: ['w5', 'w6'] } } })).toBe(1);
    expect(await db.session.findUnique({ where: { id: 'w6' } })).not.toBeNull();
  });

  it(`keeps writing after the client reconnects (${name})`, async () => {
    await db.$disconnect();
    await db.$connect();
    await writer.transaction([insertSession('w7', new Date())]);
    expect(await db.session.count({ where: { id: 'w7' } })).toBe(1);
  });

  // a pool's idle connections exist on PostgreSQL only: no such case on SQLite (not a skipped one)
  if (name === 'PostgreSQL')
    it('keeps writing after the server ends its idle connections', async () => {
      await writer.transaction([insertSession('w8', new Date())]);
      await db.$queryRawUnsafe(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      await expectEventually(() => writer.transaction([insertSession(`w9-${Date.now()}`, new Date())]));
      expect(await db.session.count({ where: { id: { startsWith: 'w9-' } } })).toBeGreaterThanOrEqual(1);
    });

  it('writes a fenced transaction only when its first statement changes a row (its own and Prisma’s)', async () => {
    await writer.transaction([insertSession('f1', new Date())]);
    for (const [i, fenced] of [writer, prismaWriter(db)].entries()) {
      const lost = await fenced.fenced([
        sql`UPDATE "Session" SET "title" = 'lost' WHERE "id" = 'f1' AND "summary_upto" = 99`,
        insertSession(`f-lost-${i}`, new Date()),
      ]);
      expect(lost).toBeNull();
      expect(await db.session.count({ where: { id: `f-lost-${i}` } })).toBe(0);
      const held = await fenced.fenced([
        sql`UPDATE "Session" SET "title" = ${`held ${i}`} WHERE "id" = 'f1' AND "summary_upto" = 0`,
        insertSession(`f-held-${i}`, new Date()),
      ]);
      expect(held).toEqual([1, 1]);
      expect((await db.session.findUnique({ where: { id: 'f1' } }))?.title).toBe(`held ${i}`);
      expect(await db.session.count({ where: { id: `f-held-${i}` } })).toBe(1);
    }
  });
});
