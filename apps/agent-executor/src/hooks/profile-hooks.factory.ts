import { Inject, Injectable } from '@nestjs/common';
import type { Functions, Hooks } from '@app/agent-core';
import type { PlatformConfig } from '@app/config';
import type { ResolvedHook } from '@app/contracts';
import { httpExchange } from '@app/functions';
import { PLATFORM_CONFIG } from '@app/runtime';
import { BusFunctions } from '../tools/bus-functions';
import { functionHookTarget } from './function-hook.target';
import { recordHookCall } from './hook-record';
import type { HookTarget } from './hook-target';
import { ProfileHooks } from './profile-hooks';
import { webhookGuard } from './webhook-guard';
import { webhookHookTarget } from './webhook-hook.target';

/** A profile's hooks bound to their targets: functions over the bus, webhooks through the guard. */
@Injectable()
export class ProfileHooksFactory {
  constructor(
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(BusFunctions) private readonly functions: Functions,
  ) {}

  /** Nothing for a profile without hooks: the engine then calls none. */
  forProfile(hooks: readonly ResolvedHook[]): Hooks | undefined {
    if (hooks.length === 0) return undefined;
    return new ProfileHooks(
      hooks.map((spec) => ({ spec, target: this.targetOf(spec) })),
      recordHookCall,
    );
  }

  private targetOf(hook: ResolvedHook): HookTarget {
    if (hook.function !== undefined) return functionHookTarget(this.functions, hook.function);
    return webhookHookTarget(
      new URL(hook.url as string),
      webhookGuard(this.config.functions.http.allowed_domains, hook),
      httpExchange,
    );
  }
}
