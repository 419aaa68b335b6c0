// The worker thread of sdk.ts: one @openai/agents agent with an `add` function tool.
import { parentPort, workerData } from 'node:worker_threads';
import { openAiAgentsTurn } from '../common/openai-agents';

const turn = openAiAgentsTurn(workerData.llmUrl);

parentPort?.on('message', async ({ id, message }: { id: number; message: string }) => {
  const started = performance.now();
  try {
    await turn(message);
    parentPort?.postMessage({ id, result: { ms: performance.now() - started } });
  } catch (err) {
    parentPort?.postMessage({ id, error: String(err) });
  }
});
