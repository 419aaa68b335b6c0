import { Controller, Get, Header } from '@nestjs/common';
import { metricsRegistry } from '@app/observability';

@Controller()
export class MetricsController {
  @Get('metrics')
  @Header('content-type', metricsRegistry.contentType)
  metrics(): Promise<string> {
    return metricsRegistry.metrics();
  }
}
