import { describe, expect, it } from 'vitest';
import { parseStartArgs, UsageError } from './args.mjs';

describe('npm start arguments', () => {
  it('builds and runs one of each service by default', () => {
    expect(parseStartArgs([])).toEqual({
      build: true,
      cluster: false,
      replicas: { gateway: 1, 'agent-executor': 1, 'function-runner': 1, scheduler: 1 },
    });
  });

  it('runs what is built with --no-build', () => {
    expect(parseStartArgs(['--no-build'])).toMatchObject({ build: false });
  });

  it.each([['--help'], ['-h']])('answers %s with the usage', (flag) => {
    expect(parseStartArgs([flag])).toEqual({ help: expect.stringMatching(/^usage: npm start/) });
  });

  it('takes --scale more than once', () => {
    expect(parseStartArgs(['--scale', 'agent-executor=2', '--scale=function-runner=3'])).toMatchObject({
      replicas: {
        'agent-executor': 2,
        'function-runner': 3,
      },
    });
  });

  it('runs the production shape with --cluster, more gateways among it', () => {
    expect(parseStartArgs(['--cluster'])).toMatchObject({
      cluster: true,
      replicas: { gateway: 2, 'agent-executor': 2, 'function-runner': 3, scheduler: 2 },
    });
    expect(parseStartArgs(['--cluster', '--scale', 'gateway=3'])).toMatchObject({ replicas: { gateway: 3 } });
  });

  it.each([
    [['--scale', 'runner=2'], "unknown service 'runner'"],
    [['--scale', 'scheduler'], 'expected <service>=<n>'],
    [['--scale', 'scheduler=1.5'], 'whole number from 1 to 16'],
    [['--scale', 'scheduler=17'], 'whole number from 1 to 16'],
    [['--scale', 'gateway=3'], 'runs one gateway'],
    [['extra'], 'usage: npm start'],
  ])('refuses %j in one line', (args, message) => {
    expect(() => parseStartArgs(args)).toThrow(UsageError);
    expect(() => parseStartArgs(args)).toThrow(message);
    try {
      parseStartArgs(args);
    } catch (err) {
      expect((err as Error).message).not.toContain('\n');
    }
  });
});
