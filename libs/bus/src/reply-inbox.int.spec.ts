import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import { NO_BODY, replyOf, route } from '@app/contracts';
import { type NatsServer, startNatsServer } from '@app/testing';

// A user that may ask `open.>` (and hear its replies) but not `closed.>`.
const CONFIG = `authorization {
  users = [{ user: limited, password: limited, permissions: {
    publish: { allow: ["open.>"] }, subscribe: { allow: ["_INBOX.>"] }
  } }]
}`;

const refused = route('closed.ask', NO_BODY, replyOf<string>(), { timeoutMs: 20_000 });

describe('Bus requests a NATS user may not publish (a nats-server with permissions)', () => {
  let nats: NatsServer;
  let bus: Bus;

  beforeAll(async () => {
    nats = await startNatsServer({ jetstream: false, config: CONFIG });
    bus = await Bus.connect({
      url: nats.url,
      name: 'reply-inbox-spec',
      user: 'limited',
      password: 'limited',
    });
  });
  afterAll(async () => {
    await bus.drain();
    await nats.stop();
  });

  it('fails a request whose publish the broker refuses, without waiting for its timeout', async () => {
    const err = await bus.request(refused).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'unavailable' });
    expect((err as Error).message).toMatch(/^request on 'closed\.ask' failed: .*Permissions Violation/i);
  });
});
