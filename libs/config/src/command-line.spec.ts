import { describe, expect, it } from 'vitest';
import { CommandLineError, parseCommandLine } from './command-line';

const spec = {
  usage: 'usage: tool <name> [--principal <p>] [--force]',
  help: 'Makes a thing.',
  options: { principal: { type: 'string' as const }, force: { type: 'boolean' as const } },
  positionals: { min: 1, max: 2 },
};

function refusal(argv: string[]): string {
  try {
    parseCommandLine(argv, spec);
  } catch (err) {
    expect(err).toBeInstanceOf(CommandLineError);
    return (err as Error).message;
  }
  throw new Error(`${JSON.stringify(argv)} was accepted`);
}

describe('parseCommandLine', () => {
  it('reads options and names', () => {
    expect(parseCommandLine(['ops', '--principal=team', '--force'], spec)).toEqual({
      help: false,
      values: { principal: 'team', force: true },
      positionals: ['ops'],
    });
  });

  it.each([['--help'], ['-h'], ['ops', '--help']])('answers %s with the usage and the help', (...argv) => {
    expect(parseCommandLine(argv, spec)).toEqual({
      help: true,
      text: 'usage: tool <name> [--principal <p>] [--force]\n\nMakes a thing.',
    });
  });

  it.each([
    [['--nope'], "Unknown option '--nope'"],
    [['ops', '--principal'], 'argument missing'],
    [['ops', '--principal', '--force'], 'ambiguous'],
    [['--', '--help'], "'--help' looks like an option"],
    [['--', '-h'], "'-h' looks like an option"],
    [['ops', '--principal=--force'], "'--force' looks like an option"],
    [[], 'missing arguments'],
    [['a', 'b', 'c'], "unexpected argument 'c'"],
  ])('refuses %j in one line naming the usage', (argv, message) => {
    const text = refusal(argv);
    expect(text).toContain(message);
    expect(text).toContain('(usage: tool');
    expect(text).not.toContain('\n');
  });

  it('takes names that only start with a dash when they are not option-like', () => {
    expect(parseCommandLine(['--', '-5'], spec)).toMatchObject({ positionals: ['-5'] });
  });
});
