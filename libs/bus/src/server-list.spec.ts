import { describe, expect, it } from 'vitest';
import { serverList } from './bus';

describe('serverList', () => {
  it("gives the client every node of a cluster's list, and one server as a list of one", () => {
    expect(serverList('nats://127.0.0.1:4222, nats://10.0.0.2:4222,tls://n3:4222')).toEqual([
      '127.0.0.1:4222',
      '10.0.0.2:4222',
      'tls://n3:4222',
    ]);
    expect(serverList('nats://127.0.0.1:4222')).toEqual(['127.0.0.1:4222']);
  });
});
