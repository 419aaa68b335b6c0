// The same chat turn through @openai/agents, in-process, against the same scripted model. It runs
// in a worker thread of the benchmark process: still in-process (no network between the SDK and
// its tool), but with its own heap, so the garbage of the platform's HTTP client in the main
// thread is not collected during SDK turns, and it times itself without the message hop.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ROOT } from '../common/processes';

export interface SdkTurnResult {
  ms: number;
}

export interface SdkRunner {
  turn(message: string): Promise<SdkTurnResult>;
  close(): Promise<void>;
}

export function startSdk(llmUrl: string): SdkRunner {
  const worker = new Worker(join(ROOT, 'bench/chat/sdk-worker.ts'), { workerData: { llmUrl } });
  const pending = new Map<number, { resolve: (r: SdkTurnResult) => void; reject: (e: Error) => void }>();
  let next = 0;
  worker.on('message', (reply: { id: number; result?: SdkTurnResult; error?: string }) => {
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.result) waiter?.resolve(reply.result);
    else waiter?.reject(new Error(reply.error));
  });
  worker.on('error', (err) => pending.forEach((waiter) => waiter.reject(err)));
  return {
    turn: (message) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, message });
      }),
    close: async () => void (await worker.terminate()),
  };
}
