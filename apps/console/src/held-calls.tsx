import type { PendingApproval } from '@app/client';
import { useState } from 'preact/hooks';
import { formatTime, json } from './format';
import { Pre } from './ui';

export interface HeldCallDecisions {
  approve(call: PendingApproval): void;
  reject(call: PendingApproval, reason: string): void;
}

/** The function calls a run holds for a decision, each with its own Approve and Reject. */
export function HeldCalls({ calls, ...decisions }: { calls: PendingApproval[] } & HeldCallDecisions) {
  if (!calls.length) return null;
  return (
    <ul class="held-calls" aria-label="Calls waiting for approval">
      {calls.map((call) => (
        <li key={call.call_id}>
          <HeldCall call={call} {...decisions} />
        </li>
      ))}
    </ul>
  );
}

function HeldCall({ call, approve, reject }: { call: PendingApproval } & HeldCallDecisions) {
  const [reason, setReason] = useState('');
  return (
    <fieldset class="held-call">
      <legend>
        Run <code>{call.function}</code>?
      </legend>
      <Pre label={`${call.function} held arguments`}>{json(call.arguments)}</Pre>
      <p class="muted">
        call {call.call_id}
        {call.expires_at && ` · expires ${formatTime(call.expires_at)}`}
      </p>
      <div class="row">
        <button type="button" onClick={() => approve(call)}>
          Approve
        </button>
        <label>
          Reason (optional) <input value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
        </label>
        <button type="button" class="secondary" onClick={() => reject(call, reason.trim())}>
          Reject
        </button>
      </div>
    </fieldset>
  );
}

/** A held plan's decision: Approve, or Reject with an optional reason kept on the run's record. */
export function HeldPlan({ approve, reject }: { approve(): void; reject(reason: string): void }) {
  const [reason, setReason] = useState('');
  return (
    <div class="row held-plan">
      <button type="button" onClick={approve}>
        Approve
      </button>
      <label>
        Reason (optional) <input value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
      </label>
      <button type="button" class="secondary" onClick={() => reject(reason.trim())}>
        Reject
      </button>
    </div>
  );
}
