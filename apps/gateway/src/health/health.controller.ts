import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HealthService } from './health.service';

@Controller()
export class HealthController {
  constructor(@Inject(HealthService) private readonly health: HealthService) {}

  /** Liveness: the process answers. Kubernetes and compose probe this; /health is readiness. */
  @Get('health/live')
  live() {
    return { status: 'ok' };
  }

  @Get(['health', 'api/v1/health'])
  @HttpCode(200)
  async get(@Res({ passthrough: true }) res: Response) {
    const { failing, ...report } = await this.health.report();
    if (failing.length) {
      res.status(503);
      return { ...report, error: { code: 'unavailable', message: `down: ${failing.join(', ')}` } };
    }
    return report;
  }
}
