import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { stringify } from 'yaml';
import { Bus } from '@app/bus';
import { type AgentRunReply, type AgentRunRequest, Routes } from '@app/contracts';
import { loadConfig, type PlatformConfig } from '@app/config';
import { Logger } from '@app/observability';
import { PersistenceModule } from '@app/persistence';
import { RuntimeModule } from '@app/runtime';
import { migratedSqliteUrl } from '@app/testing';
import { RunsModule } from '../runs/runs.module';

export interface ExecutorUnderTest {
  app: INestApplicationContext;
  /** The executor's own connection; tests use another one, as the gateway would. */
  config: PlatformConfig;
  close(): Promise<void>;
}

export interface ExecutorOptions {
  natsUrl: string;
  llmUrl: string;
  agents?: Record<string, unknown>[];
  env?: Record<string, string>;
  /** A migrated database; a fresh SQLite file when absent. */
  databaseUrl?: string;
  /** The rest of the configuration file (`pricing`, …). */
  config?: Record<string, unknown>;
}

/** The executor's run machinery, in-process, on a private broker, a fresh SQLite file (or the database given) and the scripted model. */
export async function startExecutor(options: ExecutorOptions): Promise<ExecutorUnderTest> {
  const dir = mkdtempSync(join(tmpdir(), 'ac-executor-'));
  const configFile = join(dir, 'agentchassis.yaml');
  writeFileSync(configFile, stringify({ ...options.config, agents: options.agents ?? [] }));
  const config = loadConfig({
    AC_CONFIG: configFile,
    NATS_URL: options.natsUrl,
    DATABASE_URL: options.databaseUrl ?? (await migratedSqliteUrl()),
    LLM_PROVIDER: 'openai-compatible',
    LLM_BASE_URL: options.llmUrl,
    LLM_MODEL: 'scripted-model',
    LLM_MAX_RETRIES: '0',
    LOG_LEVEL: 'error',
    ...options.env,
  });
  const logger = new Logger({ service: 'agent-executor', level: config.log.level, format: 'text' });
  const bus = await Bus.connect({ url: config.nats.url, name: 'agent-executor-test' });
  const info = { name: 'agent-executor' as const, instance: 'test', version: 'test', startedAt: Date.now() };
  @Module({
    imports: [
      RuntimeModule.forRoot({ info, config, logger, bus }),
      PersistenceModule.forRoot(config.database.url),
      RunsModule,
    ],
  })
  class ExecutorTestModule {}
  const app = await NestFactory.createApplicationContext(ExecutorTestModule, { logger, abortOnError: false });
  await app.init();
  await bus.flush();
  return { app, config, close: () => app.close() };
}

/** One `agent.run` request, as the gateway sends it. */
export function ask(bus: Bus, request: AgentRunRequest, timeoutMs = 20_000): Promise<AgentRunReply> {
  return bus.request(Routes.agentRun, request, { timeoutMs });
}
