import { Inject, Injectable } from '@nestjs/common';
import type { AgentProfileFields } from '@app/contracts';
import { constraintViolation, DB, type Db, toJson } from '@app/persistence';

/** Profiles created over REST. */
@Injectable()
export class AgentProfileRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  async find(name: string): Promise<AgentProfileFields | undefined> {
    const row = await this.db.agentProfile.findUnique({ where: { name } });
    return row ? (row.spec as unknown as AgentProfileFields) : undefined;
  }

  async list(): Promise<AgentProfileFields[]> {
    const rows = await this.db.agentProfile.findMany({ orderBy: { name: 'asc' } });
    return rows.map((row) => row.spec as unknown as AgentProfileFields);
  }

  /** False when the name is taken. */
  async create(spec: AgentProfileFields, owner: string): Promise<boolean> {
    try {
      const { memory, ...rest } = spec;
      const stored = { ...rest, ...(memory ? { memory: { ...memory } } : {}) };
      await this.db.agentProfile.create({ data: { name: spec.name, owner, spec: toJson(stored) } });
      return true;
    } catch (err) {
      if (constraintViolation(err) === 'unique') return false;
      throw err;
    }
  }
}
