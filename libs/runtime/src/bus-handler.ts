import type { OnApplicationBootstrap } from '@nestjs/common';
import type { Bus, HandlerContext, RouteHandler } from '@app/bus';
import type { BusEvent, Route } from '@app/contracts';

/** One route a handler answers (or one event it hears), with the one service call it makes. */
export type Answer = (bus: Bus) => void;

export function answer<Q, R>(route: Route<Q, R>, handler: RouteHandler<NoInfer<Q>, NoInfer<R>>): Answer {
  return (bus) => void bus.serve(route, handler);
}

/** An event a handler hears (published, not asked: nothing is answered). */
export function hear<T>(event: BusEvent<T>, handler: (data: T, ctx: HandlerContext) => void): Answer {
  return (bus) => void bus.subscribe(event, handler);
}

/**
 * NATS in: a handler names the routes it answers and the events it hears (`answers`), each parsed
 * by its DTO and handed to one service call. They are served once the application has bootstrapped, when every provider
 * is ready, so no request reaches a service that is not.
 */
export abstract class BusHandler implements OnApplicationBootstrap {
  protected abstract readonly bus: Bus;

  protected abstract answers(): Answer[];

  onApplicationBootstrap(): void {
    for (const serve of this.answers()) serve(this.bus);
  }
}
