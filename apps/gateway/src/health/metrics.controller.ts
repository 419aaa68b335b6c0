import { Controller, Get, Header } from '@nestjs/common';
import { metricsRegistry } from '@app/observability';
import { ApiRoute } from '../common/openapi/api-route.decorator';

@Controller()
export class MetricsController {
  @Get('metrics')
  @ApiRoute({
    summary: 'Prometheus metrics',
    content: { 'text/plain': { schema: { type: 'string', description: 'the Prometheus text format' } } },
  })
  @Header('content-type', metricsRegistry.contentType)
  metrics(): Promise<string> {
    return metricsRegistry.metrics();
  }
}
