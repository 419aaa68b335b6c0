import type { PlatformConfig } from '@app/config';
import type { AgentFunction } from '@app/functions';
import { httpRequestFunction } from './http-request.function';
import { sendMessageFunction } from './send-message.function';

/** The runner's built-in functions, configured. */
export function builtinFunctions(config: PlatformConfig['functions']) {
  const httpRequest = httpRequestFunction({
    allowedDomains: config.http.allowed_domains,
    allowedMethods: config.http.allowed_methods,
    maxResponseBytes: config.http.max_response_bytes,
  });
  const sendMessage = sendMessageFunction({ webhookUrl: config.channels.webhook_url });
  return { httpRequest, all: [sendMessage, httpRequest] as AgentFunction[] };
}
