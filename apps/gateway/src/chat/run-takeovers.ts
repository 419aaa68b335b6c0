import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Bus } from '@app/bus';
import { Events } from '@app/contracts';

/**
 * The runs another executor took over, as they are announced (`agent.events.resumed`): one
 * subscription for the gateway, however many runs it waits on. A caller waiting on a run's
 * `agent.run` reply, which died with the run's first executor, is told to follow the run instead.
 */
@Injectable()
export class RunTakeovers implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly waiting = new Map<string, () => void>();
  private subscription?: ReturnType<Bus['subscribe']>;

  constructor(@Inject(Bus) private readonly bus: Bus) {}

  onApplicationBootstrap(): void {
    this.subscription = this.bus.subscribe(Events.agentRunResumed, (event) => {
      this.waiting.get(event.run_id)?.();
    });
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
  }

  /** Resolves when `runId` is taken over; `stop` ends the wait. */
  watch(runId: string): { takenOver: Promise<void>; stop: () => void } {
    let resolve!: () => void;
    const takenOver = new Promise<void>((settle) => (resolve = settle));
    this.waiting.set(runId, resolve);
    return { takenOver, stop: () => this.waiting.delete(runId) };
  }
}
