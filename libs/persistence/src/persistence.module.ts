import { type DynamicModule, Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { HealthChecks } from '@app/runtime';
import { connectMigrated, type Db } from './prisma.service';

export const DB = Symbol('DB');

/** Provides the migrated Prisma client (token `DB`) and closes it on shutdown. */
@Global()
@Module({})
export class PersistenceModule implements OnApplicationShutdown {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(HealthChecks) checks: HealthChecks,
  ) {
    checks.register('database', async () => {
      await db.$queryRawUnsafe('SELECT 1');
    });
  }

  static forRoot(url: string): DynamicModule {
    return {
      module: PersistenceModule,
      providers: [{ provide: DB, useFactory: async () => (await connectMigrated(url)).db }],
      exports: [DB],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.db.$disconnect();
  }
}
