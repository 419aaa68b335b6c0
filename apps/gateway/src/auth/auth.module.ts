import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';
import { AuthGuard } from './auth.guard';
import { MeController } from './me.controller';
import { RateLimiter } from './rate-limiter.service';
import { UsageLimits } from '@app/limits';

import { Global } from '@nestjs/common';

/** Global so feature modules can use UsageLimits. */
@Global()
@Module({
  controllers: [ApiKeysController, MeController],
  providers: [
    ApiKeyRepository,
    ApiKeysService,
    RateLimiter,
    UsageLimits,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [ApiKeysService, UsageLimits],
})
export class AuthModule {}
