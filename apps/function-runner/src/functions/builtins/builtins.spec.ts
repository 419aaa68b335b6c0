import { describe, expect, it } from 'vitest';
import { loadConfig } from '@app/config';
import { describeFunction } from '@app/functions';
import { builtinFunctions } from './builtins';

const idempotentOf = (methods?: string) => {
  const config = loadConfig(methods ? { HTTP_ALLOWED_METHODS: methods } : {});
  const defs = builtinFunctions(config.functions).all.map((fn) => describeFunction(fn, 'builtin', 1_000));
  return Object.fromEntries(defs.map((d) => [d.name, d.idempotent]));
};

describe('built-in functions', () => {
  it('declare send_message unsafe to send again, and http_request safe while it may only read', () => {
    expect(idempotentOf()).toEqual({ send_message: false, http_request: true });
    expect(idempotentOf('GET,POST')).toEqual({ send_message: false, http_request: false });
  });
});
