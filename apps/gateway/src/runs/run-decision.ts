import {
  type ApproveRunBody,
  InvalidParamsError,
  type RejectRunBody,
  type ToolDecision,
} from '@app/contracts';

/**
 * An approve body as the executor takes it: without `hash` it approves a held plan (undefined);
 * with it, a decision on a held call (`respond` instead of running it, `edit` to run it otherwise).
 */
export function approvalOf(body: ApproveRunBody): ToolDecision | undefined {
  if (!body.hash) {
    if (body.call_id || body.edit || body.respond) throw hashRequired();
    return undefined;
  }
  if (body.edit && body.respond)
    throw new InvalidParamsError(
      [{ field: 'respond', message: 'give either edit (run the call otherwise) or respond (do not run it)' }],
      'invalid decision',
    );
  return {
    action: body.respond ? 'respond' : 'approve',
    hash: body.hash,
    ...(body.call_id ? { call_id: body.call_id } : {}),
    ...(body.edit ? { arguments: body.edit.arguments } : {}),
    ...(body.respond ? { result: body.respond.result } : {}),
  };
}

/** A reject body: without `hash` it rejects a held plan (undefined), `reason` then recorded with the decision. */
export function rejectionOf(body: RejectRunBody): ToolDecision | undefined {
  if (!body.hash) {
    if (body.call_id) throw hashRequired();
    return undefined;
  }
  return {
    action: 'reject',
    hash: body.hash,
    ...(body.call_id ? { call_id: body.call_id } : {}),
    ...(body.reason ? { reason: body.reason } : {}),
  };
}

function hashRequired(): InvalidParamsError {
  return new InvalidParamsError(
    [
      {
        field: 'hash',
        message: 'a decision on a held call names its hash (as `approval_required` showed it)',
      },
    ],
    'invalid decision',
  );
}
