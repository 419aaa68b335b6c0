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
      await this.db.agentProfile.create({ data: { name: spec.name, owner, spec: stored(spec) } });
      return true;
    } catch (err) {
      if (constraintViolation(err) === 'unique') return false;
      throw err;
    }
  }

  /** Replaces the whole profile; false when there is none of that name. */
  async replace(spec: AgentProfileFields): Promise<boolean> {
    const { count } = await this.db.agentProfile.updateMany({
      where: { name: spec.name },
      data: { spec: stored(spec) },
    });
    return count > 0;
  }

  /** False when there was none of that name. */
  async delete(name: string): Promise<boolean> {
    const { count } = await this.db.agentProfile.deleteMany({ where: { name } });
    return count > 0;
  }
}

/** A DTO instance as plain JSON (its nested `memory` is a class instance). */
function stored(spec: AgentProfileFields) {
  const { memory, ...rest } = spec;
  return toJson({ ...rest, ...(memory ? { memory: { ...memory } } : {}) });
}
