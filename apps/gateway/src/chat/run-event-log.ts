import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { Bus, EventLog } from '@app/bus';
import type { PlatformConfig } from '@app/config';
import { type AgentEvent, Events, Streams } from '@app/contracts';
import { PLATFORM_CONFIG } from '@app/runtime';
import type { RunEventSource } from './run-events';

/**
 * Every run's events as the executors publish them, kept in the JetStream stream `RUN_EVENTS`
 * (file storage, `events.retention` long, at most `events.max_bytes`, `nats.jetstream_replicas`
 * copies): the streams of every gateway read them there, so that one resumed with `Last-Event-ID`,
 * here or on another gateway, goes on after the event it names. Opened at start (the stream is
 * created before any run streams) and again on first use if that failed.
 */
@Injectable()
export class RunEventLog implements RunEventSource, OnApplicationBootstrap {
  private readonly logger = new Logger(RunEventLog.name);
  private opened?: Promise<EventLog>;

  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.log().catch((err: Error) =>
      this.logger.warn(`run events cannot be kept yet (streams will not resume): ${err.message}`),
    );
  }

  async last(runId: string): Promise<AgentEvent | undefined> {
    const last = await (await this.log()).last(Events.agentEvents(runId));
    return last && { ...last.payload, seq: last.seq };
  }

  async read(runId: string, afterSeq: number, onEvent: (event: AgentEvent) => void): Promise<() => void> {
    const log = await this.log();
    return log.read(Events.agentEvents(runId), afterSeq, ({ payload, seq }) => onEvent({ ...payload, seq }));
  }

  private log(): Promise<EventLog> {
    this.opened ??= EventLog.open(this.bus, {
      stream: Streams.runEvents.name,
      subjects: [...Streams.runEvents.subjects],
      maxAgeMs: this.config.events.retention,
      maxBytes: this.config.events.max_bytes,
      replicas: this.config.nats.jetstream_replicas,
    }).catch((err: unknown) => {
      this.opened = undefined;
      throw err;
    });
    return this.opened;
  }
}
