// A profile created over REST is stored as its JSON spec: its hooks come back as given, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentProfileFields, parseDto } from '@app/contracts';
import { connectMigrated, type Db } from '@app/persistence';
import { MIGRATED_DATABASES, REPO_ROOT } from '@app/testing';
import { resolveProfile } from '../agents/agent-profile';
import { AgentProfileRepository } from './agent-profile.repository';

describe.each(MIGRATED_DATABASES)('agent profiles with hooks on $name', ({ create }) => {
  let db: Db;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await create();
    drop = database.drop;
    db = (await connectMigrated(database.url, REPO_ROOT)).db;
  });
  afterAll(async () => {
    await db?.$disconnect();
    await drop?.();
  });

  it('keeps the hooks as given, and a run sees their defaults filled in', async () => {
    const hooks = [
      { event: 'before_tool', function: 'gate', policy: 'fail_closed', timeout_ms: 500 },
      { event: 'on_turn_end', url: 'https://hooks.example.com/end' },
    ];
    const spec = parseDto(AgentProfileFields, { name: 'hooked', hooks }, 'agent profile');
    const repository = new AgentProfileRepository(db);
    expect(await repository.create(spec, 'team-a')).toBe(true);
    const stored = await repository.find('hooked');
    expect(stored?.hooks).toEqual(hooks);
    expect(resolveProfile(stored as AgentProfileFields, 'api').hooks).toEqual([
      hooks[0],
      { ...hooks[1], timeout_ms: 2_000, policy: 'fail_open' },
    ]);
  });
});
