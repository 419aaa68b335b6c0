import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually } from '@app/testing';
import { ADMIN_KEY, type Cluster, startCluster } from './cluster.harness';

const admin = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };

// What one gateway knows must hold on the other: each request here goes to one gateway directly.
describe('npm run cluster: state across the two gateways', () => {
  let cluster: Cluster;
  let a: string;
  let b: string;

  beforeAll(async () => {
    cluster = await startCluster({ stepMs: 500 });
    [a, b] = cluster.gateways;
    cluster.llm.setScript({
      replies: [
        { toolCalls: [{ name: cluster.fn.name, arguments: { tag: '{{last_user}}' } }] },
        'done: {{last_user}}',
      ],
    });
  }, 180_000);
  afterAll(() => cluster?.close());

  it('runs one turn for one Idempotency-Key sent to both gateways at once', { timeout: 60_000 }, async () => {
    const tag = `both-gateways-${Date.now()}`;
    const send = (gateway: string) =>
      fetch(`${gateway}/api/v1/chat`, {
        method: 'POST',
        headers: { ...admin, 'idempotency-key': `key-${tag}` },
        body: JSON.stringify({ message: tag, agent: 'helper' }),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as { run_id: string } }));
    const [first, second] = await Promise.all([send(a), send(b)]);

    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.body.run_id).toBe(second.body.run_id);
    expect(await cluster.db.run.count({ where: { input: tag } })).toBe(1);
    expect(cluster.fn.callsTagged(tag).length).toBeLessThanOrEqual(1);
  });

  it('refuses a key revoked on one gateway on the other too', { timeout: 60_000 }, async () => {
    const created = await fetch(`${a}/api/v1/keys`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: `revoked-${Date.now()}`, scopes: ['chat'] }),
    });
    expect(created.status).toBe(201);
    const { id, key } = (await created.json()) as { id: string; key: string };
    const me = () => fetch(`${b}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    expect((await me()).status).toBe(200);

    const revokedAt = Date.now();
    expect((await fetch(`${a}/api/v1/keys/${id}`, { method: 'DELETE', headers: admin })).status).toBeLessThan(
      300,
    );
    await expectEventually(async () => expect((await me()).status).toBe(401), {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    // the other gateway trusts a key it checked for a few seconds (KEY_CHECK_TTL_MS): reported
    console.log(`cluster revocation seen by the other gateway after ${Date.now() - revokedAt} ms`);
  });
});
