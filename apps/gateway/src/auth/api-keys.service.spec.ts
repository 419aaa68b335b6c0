import { describe, expect, it, vi } from 'vitest';
import type { PlatformConfig } from '@app/config';
import type { Logger } from '@app/observability';
import type { ApiKeyRecord, ApiKeyRepository } from './api-key.repository';
import { ApiKeysService, hashKey, KEY_CHECK_TTL_MS } from './api-keys.service';

const KEY = 'ac_0123456789abcdefghijklmnopqrstuv';

function service() {
  const record: ApiKeyRecord = {
    id: 'key-1',
    name: 'ops',
    principal: 'team-a',
    prefix: KEY.slice(0, 10),
    hash: hashKey(KEY),
    daily_cost_budget_usd: null,
    scopes: 'chat runs',
    revoked_at: null,
    last_used_at: null,
    created_at: new Date(),
  };
  const repository = {
    findByHash: vi.fn(async (hash: string) => (hash === record.hash ? { ...record } : null)),
    revoke: vi.fn(async () => {
      record.revoked_at = new Date();
      return true;
    }),
    touch: vi.fn(async () => undefined),
  };
  const keys = new ApiKeysService(
    repository as unknown as ApiKeyRepository,
    {} as PlatformConfig,
    {} as Logger,
  );
  return { keys, repository, record };
}

describe('ApiKeysService.authenticate', () => {
  it('asks the database once per key within the check TTL, and again after it', async () => {
    const { keys, repository } = service();
    const now = 1_000_000;
    const principal = { keyId: 'key-1', principal: 'team-a', scopes: ['chat', 'runs'] };
    await expect(keys.authenticate(KEY, now)).resolves.toEqual(principal);
    await expect(keys.authenticate(KEY, now + KEY_CHECK_TTL_MS - 1)).resolves.toEqual(principal);
    expect(repository.findByHash).toHaveBeenCalledTimes(1);
    await keys.authenticate(KEY, now + KEY_CHECK_TTL_MS);
    expect(repository.findByHash).toHaveBeenCalledTimes(2);
  });

  it('never caches an unknown key', async () => {
    const { keys, repository } = service();
    await expect(keys.authenticate('ac_not-a-key-at-all')).resolves.toBeNull();
    await expect(keys.authenticate('ac_not-a-key-at-all')).resolves.toBeNull();
    expect(repository.findByHash).toHaveBeenCalledTimes(2);
  });

  it('refuses a key revoked through this gateway at once, cache or not', async () => {
    const { keys } = service();
    const now = Date.now();
    expect(await keys.authenticate(KEY, now)).not.toBeNull();
    await keys.revoke('key-1');
    await expect(keys.authenticate(KEY, now + 1)).resolves.toBeNull();
  });

  it('sees a revocation made elsewhere once the TTL has passed', async () => {
    const { keys, record } = service();
    const now = 5_000_000;
    expect(await keys.authenticate(KEY, now)).not.toBeNull();
    record.revoked_at = new Date(); // another gateway replica revoked it
    expect(await keys.authenticate(KEY, now + 1)).not.toBeNull();
    await expect(keys.authenticate(KEY, now + KEY_CHECK_TTL_MS)).resolves.toBeNull();
  });
});
