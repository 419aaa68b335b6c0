// The turn as an operator runs it: tracing exported over OTLP, JSON info logs to a file, `add` a
// sandboxed custom function in a function-runner, the caller on Node's built-in fetch. Only the
// sequential round, alternating with the same SDK turn, for the latency and CPU ratios.
import { interleaved, type Sample } from '../common/measure';
import { startSdk } from './sdk';
import { ADMIN_KEY, startStack } from './stack';

export interface DeployedResult {
  ours: Sample;
  sdk: Sample;
  /** CPU per turn, ms: the platform's three services, and the SDK's whole turn. */
  cpu: { gateway: number; executor: number; runner: number; sdk: number };
}

export async function measureDeployed(
  turns: number,
  warmup: number,
  script: unknown,
  sdkAsk: string,
): Promise<DeployedResult> {
  const stack = await startStack('deployed');
  const sdk = startSdk(stack.llm);
  try {
    await stack.setScript(script);
    const ours = async (i: number) => {
      const res = await fetch(`${stack.gateway}/api/v1/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` },
        body: JSON.stringify({ message: `What is 2 + 3? (${i})` }),
      });
      const body = (await res.json()) as { finish_reason?: string; function_calls?: { status: string }[] };
      if (
        res.status !== 200 ||
        body.finish_reason !== 'final' ||
        body.function_calls?.[0]?.status !== 'success'
      ) {
        throw new Error(`turn ${i} failed: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      }
    };
    let before = stack.cpuMs();
    const round = await interleaved(
      turns,
      ours,
      (i) => sdk.turn(`${sdkAsk} (${i})`),
      warmup,
      () => {
        before = stack.cpuMs();
      },
    );
    const after = stack.cpuMs();
    const perTurn = (key: 'gateway' | 'executor' | 'runner') => (after[key] - before[key]) / turns;
    return {
      ours: round.a,
      sdk: round.b,
      cpu: {
        gateway: perTurn('gateway'),
        executor: perTurn('executor'),
        runner: perTurn('runner'),
        sdk: round.bLocalCpuMs,
      },
    };
  } finally {
    await sdk.close();
    await stack.close();
  }
}
