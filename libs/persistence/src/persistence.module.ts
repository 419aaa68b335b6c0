import {
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  Module,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { connectMigrated, type Db } from './prisma.service';
import { openSqlWriter, type SqlWriter } from './sql-writer';

export const DB = Symbol('DB');
/** The connection of its own that the hot writes run on (`SqlWriter`). */
export const SQL_WRITER = Symbol('SQL_WRITER');

/** Whether the database answers; the app registers it with its health checks. */
@Injectable()
export class DatabaseHealth {
  constructor(@Inject(DB) private readonly db: Db) {}

  async check(): Promise<void> {
    await this.db.$queryRawUnsafe('SELECT 1');
  }
}

/** Provides the migrated Prisma client (token `DB`) and the raw writer, and closes both on shutdown. */
@Global()
@Module({})
export class PersistenceModule implements OnApplicationShutdown {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(SQL_WRITER) private readonly writer: SqlWriter,
  ) {}

  static forRoot(url: string): DynamicModule {
    return {
      module: PersistenceModule,
      providers: [
        { provide: DB, useFactory: async () => (await connectMigrated(url)).db },
        { provide: SQL_WRITER, useFactory: (db: Db) => openSqlWriter(url, db), inject: [DB] },
        DatabaseHealth,
      ],
      exports: [DB, SQL_WRITER, DatabaseHealth],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.writer.close();
    await this.db.$disconnect();
  }
}
