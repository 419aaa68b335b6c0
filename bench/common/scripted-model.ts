// The scripted model as its own process (built: dist/libs/testing), so its CPU is not the
// benchmark's.
import { type Stoppable, startProcess } from './processes';

export interface ScriptedModel extends Stoppable {
  /** The OpenAI-compatible base URL, ending in /v1. */
  url: string;
  pid: number | undefined;
  setScript(script: unknown): Promise<void>;
}

export async function startScriptedModel(started: Stoppable[]): Promise<ScriptedModel> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const args = ['dist/libs/testing/src/scripted-llm/main.js', '--port', String(port), '--host', '127.0.0.1'];
  const proc = await startProcess('scripted-llm', args, {}, /listening/, started);
  return {
    url: `http://127.0.0.1:${port}/v1`,
    pid: proc.pid,
    stop: () => proc.stop(),
    setScript: async (script) => {
      const res = await fetch(`http://127.0.0.1:${port}/_script`, {
        method: 'PUT',
        body: JSON.stringify(script),
      });
      if (!res.ok) throw new Error(`the scripted model refused the script: ${await res.text()}`);
    },
  };
}
