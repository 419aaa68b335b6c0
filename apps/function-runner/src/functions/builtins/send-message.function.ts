import { FunctionFailedError } from '@app/contracts';
import { type AgentFunction, Param } from '@app/functions';

export const CHANNELS = ['console', 'email', 'sms', 'wechat'] as const;

/** What `send_message` takes: who, what, and through which channel. */
export class SendMessageParams {
  @Param({ description: 'recipient: a name, email address, phone number, …', required: true }) to!: string;
  @Param({ description: 'message text', required: true }) message!: string;
  @Param({
    description: 'channel: console (default), email, sms or wechat',
    enum: CHANNELS,
    default: 'console',
  })
  channel?: string;
}

export interface SendMessageOptions {
  /** Where messages for channels other than console are POSTed; those channels are off without it. */
  webhookUrl?: string;
  fetch?: typeof fetch;
}

/**
 * Sends a message. `console` writes it to the runner's log; the other channels are handed to a
 * configured webhook (one bridge to email/SMS/WeChat gateways) as JSON.
 */
export function sendMessageFunction(o: SendMessageOptions): AgentFunction<SendMessageParams> {
  const post = o.fetch ?? fetch;
  return {
    name: 'send_message',
    description: 'Sends a message to a person through a channel (console by default).',
    params: SendMessageParams,
    // Each call delivers a message: a repeat without the first attempt's key would send it twice.
    idempotent: false,
    async execute({ to, message, channel = 'console' }, ctx) {
      const sent_at = new Date().toISOString();
      if (channel === 'console') {
        ctx.logger.info(`message for ${to}: ${message}`, { channel });
        return { message: `message sent to ${to} via console`, data: { channel, to, sent_at } };
      }
      if (!o.webhookUrl) {
        throw new FunctionFailedError(
          `channel '${channel}' is not configured: set functions.channels.webhook_url (MESSAGE_WEBHOOK_URL) to deliver it`,
        );
      }
      const body = JSON.stringify({ channel, to, message, sent_at, caller: ctx.caller });
      const response = await post(o.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: ctx.signal,
      }).catch((err: unknown) => {
        throw ctx.signal.aborted
          ? ctx.signal.reason
          : new FunctionFailedError(`the ${channel} webhook could not be reached: ${causeOf(err)}`);
      });
      await response.body?.cancel();
      if (!response.ok) throw new FunctionFailedError(`the ${channel} webhook answered ${response.status}`);
      return { message: `message sent to ${to} via ${channel}`, data: { channel, to, sent_at } };
    },
  };
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}
