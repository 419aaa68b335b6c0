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

  it('keeps the stack (and cause) of an error logged as err, in JSON and in text', () => {
    const failure = new Error('disk full', { cause: new Error('ENOSPC') });
    const json = capture();
    json.logger.error('write failed', { err: failure });
    const record = JSON.parse(json.lines[0]);
    expect(record.err).toMatchObject({ type: 'Error', message: 'disk full', cause: { message: 'ENOSPC' } });
    expect(record.err.stack).toMatch(/^Error: disk full\n\s+at /);
    expect(record.err.cause.stack).toMatch(/^Error: ENOSPC\n\s+at /);
    const text = capture({ format: 'text' });
    text.logger.error('write failed', failure);
    expect(text.lines[0]).toMatch(
      /ERROR \[test\] write failed err=\{"type":"Error".*"stack":"Error: disk full\\n +at /,
    );
  });

  it('adds the context of the moment and the bound fields to every line', () => {
    let traceId = 't1';
    const { logger, lines } = capture({ context: () => ({ trace_id: traceId }) });
    const child = logger.child({ run_id: 'r1' });
    child.info('one');
    traceId = 't2';
    child.child({ step: 2 }).warn('two');
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { msg: 'one', level: 'info', trace_id: 't1', run_id: 'r1' },
      { msg: 'two', level: 'warn', trace_id: 't2', run_id: 'r1', step: 2 },
    ]);
    expect(JSON.parse(lines[0]).time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('takes NestJS logs as debug lines naming their source', () => {
    const { logger, lines } = capture({ level: 'debug' });
    logger.log('Mapped {/health, GET} route', 'RouterExplorer');
    logger.warn('deprecated %s option', 'NestApplication');
    logger.error('boom', 'Error: boom\n    at x', 'ExceptionsHandler');
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { level: 'debug', msg: 'Mapped {/health, GET} route', nest: 'RouterExplorer' },
      { level: 'warn', msg: 'deprecated %s option', nest: 'NestApplication' },
      { level: 'error', msg: 'boom', err: 'Error: boom\n    at x', nest: 'ExceptionsHandler' },
    ]);
    expect(logger.enabled('debug')).toBe(true);
    expect(capture().logger.enabled('debug')).toBe(false);
  });
});
