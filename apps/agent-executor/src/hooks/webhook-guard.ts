import { AppError, type AgentHookSpec, type FieldError, InvalidParamsError } from '@app/contracts';
import { judgeAddress, RequestGuard } from '@app/functions';

/**
 * The guard a webhook hook goes through: http_request's own, with its domain allow-list
 * (`functions.http.allowed_domains`). Only a hook from the configuration file may open the
 * private network (a receiver beside the platform), as an MCP server may.
 */
export function webhookGuard(
  allowedDomains: readonly string[],
  hook: Pick<AgentHookSpec, 'allow_private_network'>,
): RequestGuard {
  return new RequestGuard({
    allowedDomains: [...allowedDomains],
    allowedMethods: ['POST'],
    judge: hook.allow_private_network ? () => ({ allowed: true }) : judgeAddress,
    label: 'webhook hook',
  });
}

/**
 * What can be refused before any call: a webhook's scheme, domain and literal address. A name is
 * judged again, by what it resolves to, at every call.
 */
export function checkWebhooks(
  allowedDomains: readonly string[],
  hooks: readonly AgentHookSpec[] | undefined,
): void {
  const errors: FieldError[] = [];
  (hooks ?? []).forEach((hook, i) => {
    if (hook.url === undefined) return;
    try {
      webhookGuard(allowedDomains, hook).checkStatic(new URL(hook.url));
    } catch (err) {
      const message = err instanceof AppError ? err.message : 'not a URL';
      errors.push({ field: `hooks.${i}.url`, message });
    }
  });
  if (errors.length > 0) throw new InvalidParamsError(errors, 'invalid agent profile');
}
