import { type DynamicModule, Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { connectMigrated, type Db } from './prisma.service';

export const DB = Symbol('DB');

/** Provides the migrated Prisma client (token `DB`) and closes it on shutdown. */
@Global()
@Module({})
export class PersistenceModule implements OnApplicationShutdown {
  constructor(@Inject(DB) private readonly db: Db) {}

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
