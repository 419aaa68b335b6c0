import 'reflect-metadata';
import { bootService } from '@app/runtime';
import { configureHttp } from './common/http-app';
import { GatewayModule } from './gateway.module';

void bootService({
  service: 'gateway',
  module: (runtime, config) => GatewayModule.register(runtime, config),
  http: configureHttp,
});
