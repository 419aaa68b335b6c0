import { Inject, Injectable } from '@nestjs/common';
import { DB, type Db } from '@app/persistence';

export interface ApiKeyRecord {
  id: string;
  name: string;
  principal: string;
  prefix: string;
  hash: string;
  scopes: string;
  daily_cost_budget_usd: number | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
}

@Injectable()
export class ApiKeyRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  create(
    record: Omit<ApiKeyRecord, 'created_at' | 'revoked_at' | 'last_used_at' | 'daily_cost_budget_usd'> &
      Partial<Pick<ApiKeyRecord, 'daily_cost_budget_usd'>>,
  ): Promise<ApiKeyRecord> {
    return this.db.apiKey.create({ data: record });
  }

  findByHash(hash: string): Promise<ApiKeyRecord | null> {
    return this.db.apiKey.findUnique({ where: { hash } });
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.db.apiKey.findMany({ orderBy: { created_at: 'asc' } });
  }

  count(): Promise<number> {
    return this.db.apiKey.count();
  }

  async revoke(id: string): Promise<boolean> {
    const { count } = await this.db.apiKey.updateMany({
      where: { id, revoked_at: null },
      data: { revoked_at: new Date() },
    });
    return count > 0;
  }

  /** The keys of that name not yet revoked. */
  active(name: string): Promise<ApiKeyRecord[]> {
    return this.db.apiKey.findMany({ where: { name, revoked_at: null }, orderBy: { created_at: 'asc' } });
  }

  /** Active keys that hold `scope`, whatever their name. */
  async countActiveWithScope(scope: string): Promise<number> {
    const keys = await this.db.apiKey.findMany({ where: { revoked_at: null }, select: { scopes: true } });
    return keys.filter((key) => key.scopes.split(' ').includes(scope)).length;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.db.apiKey.count({ where: { id } })) > 0;
  }

  async touch(id: string): Promise<void> {
    await this.db.apiKey.update({ where: { id }, data: { last_used_at: new Date() } });
  }
}
