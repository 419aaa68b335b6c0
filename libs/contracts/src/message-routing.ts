import { IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ID_PATTERN, MAX_MESSAGE_CHARS, ROUTINGS, type Routing } from './agent';
import type { RoutingDecision, Usage } from './agent';

/**
 * Body of `agent.messages.route`: where a chat message goes. With `run_id`, into that run while it
 * runs, else into a new run of its session; with only `session_id`, by `routing` while the session
 * has a run going.
 */
export class MessageRouteRequest {
  @IsString() @MinLength(1) @MaxLength(MAX_MESSAGE_CHARS) message!: string;
  @IsOptional() @IsString() @Matches(ID_PATTERN) run_id?: string;
  @IsOptional() @IsString() @Matches(ID_PATTERN) session_id?: string;
  @IsOptional() @IsIn(ROUTINGS) routing?: Routing;
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
}

/**
 * `joined`: the message is in `run_id`'s inbox. `new`: start a run in `session_id` (when known),
 * with `context` (what an ended run did) added to its instructions and `decision` in its trace.
 * `usage`: what asking the model where the message goes cost, when it was asked (`auto`): the
 * caller's to be charged, as a run's usage is.
 */
export interface MessageRouteReply {
  action: 'joined' | 'new';
  run_id?: string;
  session_id?: string;
  context?: string;
  decision?: RoutingDecision;
  usage?: Usage;
}

/** Body of `agent.inbox.<executor>`: a message for the run, to the executor holding it. */
export class RunInboxRequest {
  @IsString() @Matches(ID_PATTERN) run_id!: string;
  @IsString() @MinLength(1) @MaxLength(MAX_MESSAGE_CHARS) message!: string;
  /** Set when the message came without a run id: traced with it. */
  @IsOptional() @IsObject() decision?: RoutingDecision;
}

/** `POST /api/v1/chat` answered 202: the message joined a running run. */
export class ChatJoinedReply {
  @IsString() run_id!: string;
  @IsString() session_id!: string;
  @IsIn(['joined']) status!: 'joined';
}
