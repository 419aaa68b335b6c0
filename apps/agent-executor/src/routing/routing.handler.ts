import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import { answer, type Answer, BusHandler } from '@app/runtime';
import { Routes } from '@app/contracts';
import { MessageRoutingService } from './message-routing.service';

/** NATS in: where a chat message goes (into a running run, or a new one). */
@Injectable()
export class RoutingHandler extends BusHandler {
  constructor(
    @Inject(Bus) protected readonly bus: Bus,
    @Inject(MessageRoutingService) private readonly routing: MessageRoutingService,
  ) {
    super();
  }

  protected answers(): Answer[] {
    return [answer(Routes.agentMessageRoute, (r) => this.routing.route(r))];
  }
}
