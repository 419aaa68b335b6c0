import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { Module } from '@nestjs/common';
import type { PlatformConfig } from '@app/config';
import { FunctionRegistry } from '@app/functions';
import { Logger } from '@app/observability';
import { PLATFORM_CONFIG } from '@app/runtime';
import { builtinFunctions } from './builtins/builtins';
import { FunctionsHandler } from './functions.handler';
import { HTTP_BRIDGE, NETWORK_ISOLATION } from './functions.tokens';
import { A2aAgentsService } from './a2a/a2a-agents.service';
import { McpServersService } from './mcp/mcp-servers.service';
import { httpBridge } from './plugins/http-bridge';
import { PluginLoaderService } from './plugins/plugin-loader.service';
import { type NetworkIsolation, probeNetworkIsolation } from './sandbox/network-isolation';
import { SandboxPool } from './sandbox/sandbox-pool';
import { sandboxScript } from './sandbox/sandbox-process';

const BUILTINS = Symbol('BUILTINS');

function createSandboxPool(config: PlatformConfig, logger: Logger, isolation: NetworkIsolation): SandboxPool {
  if (isolation.isolated) logger.info(`sandbox: ${isolation.detail}`);
  else {
    logger.warn(
      `sandbox: custom functions are NOT cut off from the network: ${isolation.detail}. Only the permission model, ` +
        'the empty environment and the memory limit apply; run runners in pods with locked-down egress (docs/security.md)',
    );
  }
  const configured = resolve(config.functions.dir);
  return new SandboxPool({
    dir: existsSync(configured) ? realpathSync(configured) : configured,
    script: sandboxScript(),
    memoryMb: config.functions.sandbox_memory_mb,
    size: Math.min(config.functions.sandbox_workers, config.functions.concurrency),
    isolation,
    logger: logger.child({ component: 'sandbox' }),
  });
}

@Module({
  providers: [
    {
      provide: BUILTINS,
      inject: [PLATFORM_CONFIG],
      useFactory: (config: PlatformConfig) => builtinFunctions(config.functions),
    },
    {
      provide: FunctionRegistry,
      inject: [PLATFORM_CONFIG, BUILTINS],
      useFactory: (config: PlatformConfig, builtins: ReturnType<typeof builtinFunctions>) => {
        const registry = new FunctionRegistry(config.functions.default_timeout);
        registry.setGroup('builtin', builtins.all);
        return registry;
      },
    },
    {
      provide: HTTP_BRIDGE,
      inject: [BUILTINS],
      useFactory: (builtins: ReturnType<typeof builtinFunctions>) => httpBridge(builtins.httpRequest),
    },
    { provide: NETWORK_ISOLATION, useFactory: probeNetworkIsolation },
    {
      provide: SandboxPool,
      inject: [PLATFORM_CONFIG, Logger, NETWORK_ISOLATION],
      useFactory: createSandboxPool,
    },
    PluginLoaderService,
    McpServersService,
    A2aAgentsService,
    FunctionsHandler,
  ],
})
export class FunctionsModule {}
