import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Bus } from '@app/bus';
import { Routes } from '@app/contracts';
import { MessageRoutingService } from './message-routing.service';

/** NATS in: where a chat message goes (into a running run, or a new one). */
@Injectable()
export class RoutingHandler implements OnApplicationBootstrap {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(MessageRoutingService) private readonly routing: MessageRoutingService,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.serve(Routes.agentMessageRoute, (r) => this.routing.route(r));
  }
}
