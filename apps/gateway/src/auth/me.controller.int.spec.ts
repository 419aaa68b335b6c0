import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually } from '@app/testing';
import { startGateway } from '../testing/in-process-gateway';

const ADMIN_KEY = 'ac_me_spec_admin_key_0123456789abc';
const env = { AC_ADMIN_KEY: ADMIN_KEY, ...(process.env.NATS_URL ? { NATS_URL: process.env.NATS_URL } : {}) };

describe('GET /api/v1/me (in-process gateway, real NATS, Redis, SQLite)', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  const me = (key?: string) =>
    fetch(`${gateway.base}/api/v1/me`, { headers: key ? { authorization: `Bearer ${key}` } : {} });

  beforeAll(async () => {
    gateway = await startGateway(env);
    // the rate limiter refuses (503) until the gateway's Redis connection is up
    await expectEventually(async () => {
      const health = (await (await fetch(`${gateway.base}/health`)).json()) as { redis: string };
      expect(health.redis).toBe('ok');
    });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('answers any valid key with its principal, scopes and id', async () => {
    const created = await fetch(`${gateway.base}/api/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'reader', scopes: ['functions:read'], principal: 'bob' }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { key, id } = (await created.json()) as { key: string; id: string };

    const res = await me(key);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ principal: 'bob', scopes: ['functions:read'], key_id: id });

    const admin = (await (await me(ADMIN_KEY)).json()) as { scopes: string[] };
    expect(admin.scopes).toContain('admin');
  });

  it('refuses a missing or unknown key with the API’s error', async () => {
    expect((await me()).status).toBe(401);
    const res = await me('ac_not_a_key_at_all_0000');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it.each(['ac_nope', 'ac_not_a_key_at_all_0000'])(
    'calls a well-formed key that matches none unknown, not malformed: %s',
    async (key) => {
      const res = await me(key);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        error: { code: 'unauthorized', message: 'unknown or revoked API key' },
      });
    },
  );

  it('calls a header that holds no key malformed', async () => {
    const res = await fetch(`${gateway.base}/api/v1/me`, { headers: { authorization: 'Token abc' } });
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^malformed/);
  });
});
