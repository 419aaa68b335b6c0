import { describe, expect, it } from 'vitest';
import { Logger, Redactor } from '@app/observability';

function capture(options: Partial<ConstructorParameters<typeof Logger>[0]> = {}) {
  const lines: string[] = [];
  const logger = new Logger({
    service: 'test',
    level: 'info',
    format: 'json',
    write: (l) => lines.push(l),
    ...options,
  });
  return { logger, lines };
}

describe('Logger', () => {
  it('writes one JSON line per record with service and bound fields', () => {
    const { logger, lines } = capture();
    logger.child({ run_id: 'r1' }).info('function call', { name: 'noop', ms: 3 });
    const record = JSON.parse(lines[0]);
    expect(record).toMatchObject({
      level: 'info',
      service: 'test',
      msg: 'function call',
      run_id: 'r1',
      name: 'noop',
      ms: 3,
    });
  });

  it('drops records below the configured level', () => {
    const { logger, lines } = capture({ level: 'warn' });
    logger.info('hidden');
    logger.debug('hidden');
    logger.warn('shown');
    expect(lines).toHaveLength(1);
  });

  it('writes readable text lines when asked', () => {
    const { logger, lines } = capture({ format: 'text' });
    logger.info('started', { port: 3000 });
    expect(lines[0]).toMatch(/INFO +\[test\] started port=3000$/);
  });

  it('masks configured secrets, bearer tokens, API keys and URL passwords', () => {
    const { logger, lines } = capture({ redactor: new Redactor(['my-configured-secret']) });
    logger.info('oops my-configured-secret', {
      headers: { authorization: 'Bearer abcdefghijkl123' },
      url: 'postgresql://ac:hunter2@db/ac',
      key: 'sk-proj-abcdefghijklmnop',
      err: new Error('api_key=XYZ12345 rejected'),
    });
    expect(lines[0]).not.toMatch(/my-configured-secret|abcdefghijkl123|hunter2|abcdefghijklmnop|XYZ12345/);
    expect(lines[0]).toMatch(/postgresql:\/\/ac:\*\*\*@db/);
  });
});
