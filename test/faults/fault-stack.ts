import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { ServiceName } from '@app/contracts';
import {
  gatewayUrl,
  migratedSqliteUrl,
  type NatsServer,
  type ScriptedLlm,
  type ServiceProcess,
  startNatsServer,
  startScriptedLlm,
  startService,
} from '@app/testing';

export const ADMIN_KEY = 'ac_test_admin_key_faults_0123456789abcd';
export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

export interface FaultStack {
  base: string;
  env: Record<string, string>;
  /** The stack's own broker: the test stops and starts it on the same port. */
  nats: NatsServer;
  llm: ScriptedLlm;
  services: Partial<Record<ServiceName, ServiceProcess>>;
  /** A new API key with the given scopes. */
  key(scopes: string[]): Promise<string>;
  close(): Promise<void>;
}

/**
 * Built services as processes on a broker of the test's own, with API keys on (run slots in
 * Redis), the scripted model and the given agents. Faults are the test's to make.
 */
export async function startFaultStack(options: {
  services: ServiceName[];
  agents?: Record<string, unknown>[];
  llmLatencyMs?: number;
  env?: Record<string, string>;
}): Promise<FaultStack> {
  const nats = await startNatsServer();
  const llm = await startScriptedLlm({ latencyMs: options.llmLatencyMs ?? 0 });
  const configFile = join(mkdtempSync(join(tmpdir(), 'ac-faults-')), 'agentchassis.yaml');
  writeFileSync(configFile, stringify({ agents: options.agents ?? [{ name: 'helper' }] }));
  const env: Record<string, string> = {
    AC_CONFIG: configFile,
    NATS_URL: nats.url,
    DATABASE_URL: await migratedSqliteUrl(),
    PORT: '0',
    LLM_PROVIDER: 'openai-compatible',
    LLM_BASE_URL: llm.url,
    LLM_MODEL: 'scripted-model',
    LLM_MAX_RETRIES: '0',
    AUTH_ENABLED: 'true',
    AC_ADMIN_KEY: ADMIN_KEY,
    ...options.env,
  };
  const services: FaultStack['services'] = {};
  const started = await Promise.allSettled(options.services.map((name) => startService(name, env)));
  for (const result of started) if (result.status === 'fulfilled') services[result.value.name] = result.value;
  const close = async () => {
    await Promise.all(Object.values(services).map((service) => service.stop()));
    await nats.start().catch(() => undefined);
    await Promise.all([llm.close(), nats.stop()]);
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await close();
    throw failed.reason;
  }
  const base = services.gateway ? gatewayUrl(services.gateway) : '';
  return {
    base,
    env,
    nats,
    llm,
    services,
    close,
    key: async (scopes) => {
      const res = await post(
        base,
        '/api/v1/keys',
        { name: `faults-${Date.now()}`, scopes },
        bearer(ADMIN_KEY),
      );
      if (res.status !== 201) throw new Error(`key not created: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { key: string }).key;
    },
  };
}

export function post(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}
