import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args';

describe('parseCliArgs', () => {
  it('reads port, host, latency and a script file, in both flag styles', () => {
    const files: Record<string, string> = { 's.json': '{"replies":["hi"]}' };
    const options = parseCliArgs(
      ['--port', '4011', '--host=127.0.0.1', '--latency=250', '--script', 's.json', '--prompt-cache'],
      (p) => files[p],
    );
    expect(options).toEqual({
      port: 4011,
      host: '127.0.0.1',
      latencyMs: 250,
      script: { replies: ['hi'] },
      promptCache: true,
    });
  });

  it('defaults to port 4010 on all interfaces with no latency', () => {
    expect(parseCliArgs([])).toEqual({
      port: 4010,
      host: '0.0.0.0',
      latencyMs: 0,
      script: {},
      promptCache: false,
    });
  });

  it('refuses unknown flags, bad numbers and broken scripts with a usable message', () => {
    expect(() => parseCliArgs(['--verbose'])).toThrow(/Unknown option '--verbose'/);
    expect(() => parseCliArgs(['--port', 'abc'])).toThrow(/--port must be a non-negative integer/);
    expect(() => parseCliArgs(['--latency'])).toThrow(/'--latency <value>' argument missing/);
    expect(() => parseCliArgs(['--script', 'x.json'], () => '{"replies": 3}')).toThrow(
      /x.json: replies must be an array/,
    );
  });

  it('answers --help with its usage instead of failing', () => {
    expect(parseCliArgs(['--help'])).toEqual({ help: expect.stringMatching(/^usage: npm run llm:scripted/) });
  });
});
