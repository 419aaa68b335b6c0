import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HealthView, LivenessView } from '@app/contracts';
import { HealthService } from './health.service';
import { ApiRoute } from '../common/openapi/api-route.decorator';

@Controller()
export class HealthController {
  constructor(@Inject(HealthService) private readonly health: HealthService) {}

  /** Liveness: the process answers. Kubernetes and compose probe this; /health is readiness. */
  @Get('health/live')
  @ApiRoute({ summary: 'Liveness: the process answers', response: LivenessView })
  live() {
    return { status: 'ok' };
  }

  @Get(['health', 'api/v1/health'])
  @HttpCode(200)
  @ApiRoute({
    summary: 'Readiness: every service, NATS, the database and Redis',
    response: HealthView,
    errors: { 503: 'unavailable: something is down; the body is also the health report, naming it' },
  })
  async get(@Res({ passthrough: true }) res: Response) {
    const { failing, ...report } = await this.health.report();
    if (failing.length) {
      res.status(503);
      return { ...report, error: { code: 'unavailable', message: `down: ${failing.join(', ')}` } };
    }
    return report;
  }
}
