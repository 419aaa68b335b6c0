import { Param } from '@app/functions';

/** What an agent called as a function is given: a message, and the session to continue. */
export class AgentMessageParams {
  @Param({ description: 'what to ask or tell the agent', required: true }) message!: string;
  @Param({ description: 'continue this session of the agent (from an earlier reply)' }) session_id?: string;
}
