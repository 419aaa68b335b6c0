import { describe, expect, it } from 'vitest';
import { Redactor } from '@app/observability';

describe('Redactor', () => {
  const redactor = new Redactor(['configured-secret']);

  it.each([
    ['{"authorization":"Basic dXNlcjpwYXNz"}', '{"authorization":"Basic ***"}'],
    ['AUTHORIZATION: Bearer abcdefghijkl', 'AUTHORIZATION: Bearer ***'],
    ['sent bearer abcdefghijkl123', 'sent bearer ***'],
    ['key sk-proj-abcdefghijklmnop used', 'key sk-*** used'],
    ['nats://user:hunter2@nats:4222', 'nats://user:***@nats:4222'],
    ['api-key=XYZ12345 rejected', 'api-key=*** rejected'],
    ['{"Password":"hunter2"}', '{"Password":"***"}'],
    ['?token=abc&x=1', '?token=***&x=1'],
    ['the configured-secret leaked', 'the *** leaked'],
  ])('masks %s', (line, masked) => {
    expect(redactor.redact(line)).toBe(masked);
  });

  it('leaves a line without a secret as it is', () => {
    const line = '{"level":"info","msg":"function call finished","name":"send_message","ms":12}';
    expect(redactor.redact(line)).toBe(line);
  });
});
