import type { Exchange, RequestGuard } from '@app/functions';
import { HookCallError, type HookTarget } from './hook-target';

/** A webhook's reply is small: a decision at most. */
const MAX_REPLY_BYTES = 64 * 1024;

/**
 * A hook served by a webhook: the context POSTed as JSON to the URL, through the same guard as
 * http_request (allowed domains, public addresses only, checked before connecting; the connection
 * goes to the address the guard approved). No redirects; any status but 2xx is a failure.
 */
export function webhookHookTarget(url: URL, guard: RequestGuard, exchange: Exchange): HookTarget {
  return {
    label: `${url.origin}${url.pathname}`,
    async call({ context, signal }) {
      const address = await guard.check(url);
      const response = await exchange({
        method: 'POST',
        url,
        address,
        headers: { 'content-type': 'application/json', 'user-agent': 'agentchassis-hooks' },
        body: JSON.stringify(context),
        maxBytes: MAX_REPLY_BYTES,
        signal,
      });
      if (response.status < 200 || response.status >= 300)
        throw new HookCallError(`the webhook answered ${response.status}`);
      if (response.truncated) throw new HookCallError(`the webhook's reply is over ${MAX_REPLY_BYTES} bytes`);
      return readJson(response.body.toString('utf8'), context.event === 'before_tool');
    },
  };
}

/** Only a `before_tool` reply is read; elsewhere whatever the webhook answers is ignored. */
function readJson(text: string, needed: boolean): unknown {
  if (!needed || !text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HookCallError('the webhook did not answer JSON');
  }
}
