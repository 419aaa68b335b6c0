import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ConfigError, loadConfig, type PlatformConfig } from '@app/config';

function yamlFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'ac-config-')), 'agentchassis.yaml');
  writeFileSync(file, text);
  return file;
}

describe('loadConfig', () => {
  it('uses the documented defaults when nothing is configured', () => {
    const config = loadConfig({});
    expect(config.nats.url).toBe('nats://127.0.0.1:4222');
    expect(config.redis.url).toBe('redis://127.0.0.1:6379');
    expect(config.database.url).toBe('file:./data/agentchassis.db');
    expect(config.gateway.port).toBe(3000);
    expect(config.log).toEqual({ level: 'info', format: 'text' });
  });

  it('has every section of the key table as an object, even with none of its keys set', () => {
    const config = loadConfig({});
    expect(config.tracing).toEqual({});
    expect(config.metrics).toEqual({});
    expect(config.functions.channels).toEqual({});
    expect(config.memory.embeddings).toMatchObject({ model: 'text-embedding-3-small' });
  });

  it('types each key from the table: oneOf strings as unions, keys without a default optional', () => {
    expectTypeOf<PlatformConfig['log']['level']>().toEqualTypeOf<'debug' | 'info' | 'warn' | 'error'>();
    expectTypeOf<PlatformConfig['llm']['timeout']>().toEqualTypeOf<number>();
    expectTypeOf<PlatformConfig['llm']['base_url']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<PlatformConfig['functions']['http']['allowed_methods']>().toEqualTypeOf<string[]>();
    expectTypeOf<PlatformConfig['security']['auth']>().toEqualTypeOf<boolean>();
  });

  it('reads the YAML file named by AC_CONFIG and substitutes ${ENV} values', () => {
    const file = yamlFile(
      'llm:\n  api_key: "${MY_KEY}"\n  model: ${MODEL:-gpt-x}\n  timeout: 2m\nagents:\n  - name: ops\n',
    );
    const config = loadConfig({ AC_CONFIG: file, MY_KEY: 'sk-secret-1234' });
    expect(config.llm.api_key).toBe('sk-secret-1234');
    expect(config.llm.model).toBe('gpt-x');
    expect(config.llm.timeout).toBe(120_000);
    expect(config.sections.agents).toEqual([{ name: 'ops' }]);
  });

  it('lets the environment override any key, by its name or by AC_<PATH>', () => {
    const file = yamlFile('gateway:\n  port: 4000\nfunctions:\n  dir: /srv/fns\n');
    const config = loadConfig({ AC_CONFIG: file, PORT: '5000', AC_FUNCTIONS__DIR: '/opt/fns' });
    expect(config.gateway.port).toBe(5000);
    expect(config.functions.dir).toBe('/opt/fns');
  });

  it("takes a NATS cluster's nodes as one list, each a URL, and its JetStream replicas", () => {
    const nodes = 'nats://127.0.0.1:4222, nats://127.0.0.1:4223,nats://127.0.0.1:4224';
    const config = loadConfig({ NATS_URL: nodes, NATS_JETSTREAM_REPLICAS: '3' });
    expect(config.nats.url).toBe(nodes);
    expect(config.nats.jetstream_replicas).toBe(3);
    expect(loadConfig({}).nats.jetstream_replicas).toBe(1);
    expect(() => loadConfig({ NATS_URL: 'nats://a:4222,http://b:4222' })).toThrow(/NATS_URL .* schemes/);
    expect(() => loadConfig({ NATS_JETSTREAM_REPLICAS: '6' })).toThrow(/at most 5/);
  });

  it('names the key of an invalid value', () => {
    expect(() => loadConfig({ NATS_URL: 'notaurl' })).toThrow(/NATS_URL \(nats\.url\): must be a URL/);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT \(gateway\.port\): must be an integer/);
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT .* must be one of json, text/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x@h/db' })).toThrow(ConfigError);
  });

  it('reports every invalid key at once, one line each, with its unit and an example', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({ AGENT_RUN_TIMEOUT: '5', PORT: 'abc', FUNCTIONS_SANDBOX_MEMORY_MB: '8' });
    } catch (err) {
      error = err as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems.map((p) => p.key)).toEqual([
      'AGENT_RUN_TIMEOUT (executor.run_timeout)',
      'PORT (gateway.port)',
      'FUNCTIONS_SANDBOX_MEMORY_MB (functions.sandbox_memory_mb)',
    ]);
    const lines = error!.message.split('\n');
    expect(lines[0]).toBe('invalid configuration (3 settings):');
    expect(lines[1]).toBe(
      '  AGENT_RUN_TIMEOUT (executor.run_timeout): must be a duration of at least 100ms, got 5 (a bare number is milliseconds); e.g. 5m, 30s',
    );
    expect(lines[2]).toBe("  PORT (gateway.port): must be an integer, got 'abc'; e.g. 3000");
    expect(lines[3]).toBe(
      '  FUNCTIONS_SANDBOX_MEMORY_MB (functions.sandbox_memory_mb): must be a whole number of MB of at least 16, got 8; e.g. 128',
    );
  });

  it('writes duration bounds in the unit the user wrote them in', () => {
    expect(() => loadConfig({ SCHEDULER_SWEEP_INTERVAL: '0.05s' })).toThrow(
      /SCHEDULER_SWEEP_INTERVAL \(scheduler\.sweep_interval\): must be a duration of at least 100ms, got 0\.05s; e\.g\. 30s, 5m$/,
    );
    expect(() => loadConfig({ LLM_TIMEOUT: 'soon' })).toThrow(/a bare number is milliseconds\), got 'soon'/);
  });

  it('refuses a missing or malformed config file, naming AC_CONFIG', () => {
    expect(() => loadConfig({ AC_CONFIG: '/nonexistent/ac.yaml' })).toThrow(/AC_CONFIG: file/);
    expect(() => loadConfig({ AC_CONFIG: yamlFile('llm: [unclosed') })).toThrow(
      /AC_CONFIG: .* not valid YAML/,
    );
  });

  it('collects secret values for redaction, but not the non-secret parts of a URL', () => {
    const config = loadConfig({
      LLM_API_KEY: 'sk-abcdef',
      DATABASE_URL: 'postgresql://ac:p%40ss@db:5432/ac',
      LLM_PROXY: 'http://me:pr0xy-pw@proxy:3128',
      LLM_NO_PROXY: 'localhost,ollama.internal',
    });
    expect(config.secrets).toEqual(expect.arrayContaining(['sk-abcdef', 'p@ss', 'p%40ss', 'pr0xy-pw']));
    expect(config.llm.no_proxy).toEqual(['localhost', 'ollama.internal']);
    expect(config.secrets).not.toContain('postgresql://ac:p%40ss@db:5432/ac');
  });

  it('never echoes URL credentials in an error', () => {
    try {
      loadConfig({ REDIS_URL: 'redis//user:hunter2@host' });
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message).toMatch(/REDIS_URL/);
      expect((err as Error).message).not.toMatch(/hunter2/);
    }
    expect(() => loadConfig({ DATABASE_URL: 'not a url with :hunter2@ inside' })).toThrow(
      /^(?!.*hunter2).*DATABASE_URL/,
    );
  });
});
