import { Module } from '@nestjs/common';
import { RunEventsPublisher } from './run-events.publisher';

@Module({ providers: [RunEventsPublisher], exports: [RunEventsPublisher] })
export class EventsModule {}
