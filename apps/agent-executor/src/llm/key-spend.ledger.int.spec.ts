import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { DB, type Db } from '@app/persistence';
import { spendKeyOf } from '@app/limits';
import { expectEventually, MIGRATED_DATABASES } from '@app/testing';
import { ask } from '../testing/executor-app';
import { arithmetic, startWorld } from '../testing/world';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
afterAll(() => redis.quit());

const add = '<call name="add"><p>a: 1</p><p>b: 2</p></call>';
// six model calls a run: five calls of add, then the answer
const script = { replies: [add, add, add, add, add, 'Done adding.'] };
// one call's worst case: ~700 prompt tokens at 10 USD per million, 50 of reply at 40: ~0.009 USD
const pricing = { 'scripted-model': { input_per_mtok: 10, output_per_mtok: 40 } };
const CAP = 0.2;

describe.each(MIGRATED_DATABASES)(
  "an API key's daily budget under concurrent runs, on $name",
  ({ create }) => {
    it("holds each call's worst case before it is sent: 20 concurrent runs never spend past the key's own cap", async () => {
      const database = await create();
      const world = await startWorld({
        functions: arithmetic,
        agents: [{ name: 'spender', allowed_tools: ['add'], max_tokens: 50, max_steps: 10 }],
        databaseUrl: database.url,
        config: { pricing },
        // real token counts: the key's day holds what a provider would bill
        promptCache: true,
      });
      try {
        world.script(script);
        const keyId = `key_budget_${Date.now()}`;
        await world.executor.app.get<Db>(DB).apiKey.create({
          data: {
            id: keyId,
            name: 'budgeted',
            principal: 'ann',
            prefix: 'ac_test',
            hash: `hash-${keyId}`,
            scopes: '*',
            daily_cost_budget_usd: CAP,
          },
        });
        const replies = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            ask(world.bus, {
              message: `Add up, run ${i}.`,
              agent: 'spender',
              key_id: keyId,
              principal: 'ann',
            }),
          ),
        );
        const reasons = replies.map((reply) => reply.finish_reason);
        expect(reasons.every((reason) => reason === 'final' || reason === 'budget')).toBe(true);
        expect(reasons.filter((reason) => reason === 'budget').length).toBeGreaterThan(10);
        const budgetReply = replies.find((reply) => reply.finish_reason === 'budget');
        expect(budgetReply?.reply).toContain("the API key's daily cost budget");
        const billed = replies.reduce((sum, reply) => sum + (reply.usage.cost_usd ?? 0), 0);
        expect(billed).toBeLessThanOrEqual(CAP);
        // the key's day holds what the calls cost (settled after each), never more than the cap
        await expectEventually(async () =>
          expect(Number(await redis.get(spendKeyOf(keyId, Date.now())))).toBeCloseTo(billed, 6),
        );
        expect(Number(await redis.get(spendKeyOf(keyId, Date.now())))).toBeLessThanOrEqual(CAP);
        // and it was spent: the runs stopped within a few calls' worth of it
        expect(billed).toBeGreaterThan(CAP / 2);
        // a key without a budget is never held back
        const free = await ask(world.bus, {
          message: 'Add up.',
          agent: 'spender',
          key_id: 'key_free',
          principal: 'ann',
        });
        expect(free.finish_reason).toBe('final');
        expect(await redis.get(spendKeyOf('key_free', Date.now()))).toBeNull();
      } finally {
        await world.close();
        await database.drop();
      }
    });
  },
);
