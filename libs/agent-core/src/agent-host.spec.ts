import { describe, expect, it } from 'vitest';
import type { AgentRunReply } from '@app/contracts';
import { Agent } from './agent';
import { defineAgent } from './agent-definition';
import type { RunEvent } from './events';
import { InMemoryRunJournal } from './journal/in-memory-run-journal';
import { JournalReplay } from './journal/journal-replay';
import type { RunJournal } from './ports';
import { replyOf } from './run-turn';
import { AgentRuntime } from './runtime';
import { action, arithmetic, finalAnswer } from './testing/fixtures.fixture';
import { ScriptedModelClient } from './testing/scripted-model';

/** A host's turn through the engine's own `execute`: the same path the embedded SDK runs. */
function hosted(replies: string[], store: RunJournal = new InMemoryRunJournal()) {
  const told: string[] = [];
  const model = new ScriptedModelClient(replies);
  const functions = arithmetic();
  const runtime = AgentRuntime.create({
    model,
    functions,
    journal: {
      ...store,
      modelStepCompleted: (run, step) => store.modelStepCompleted(run, step),
      toolCallCompleted: (run, call, outcome) => store.toolCallCompleted(run, call, outcome),
      toolCallStarted: (run, started) => store.toolCallStarted?.(run, started),
      planChanged: (run) => store.planChanged(run),
      runEnded: (run, outcome) => {
        told.push('journal closed');
        return store.runEnded(run, outcome);
      },
    },
    events: { emit: (event: RunEvent) => void told.push(event.type) },
    hooks: { onTurnEnd: () => void told.push('hooks told') },
  });
  const agent = new Agent(
    runtime,
    defineAgent({ name: 'host', protocol: 'json-action', allowed_tools: ['*'] }),
  );
  return { agent, model, functions, told };
}

describe('a host around the engine', () => {
  it('registers the run first, records its end before run_end, and answers with what it recorded', async () => {
    const { agent, told } = hosted([finalAnswer('four')]);

    const result = await agent.execute(
      { message: 'two and two?', runId: 'run_h1' },
      {
        host: {
          register: async () => void told.push('registered'),
          started: () => void told.push('held'),
          stopped: () => void told.push('let go'),
          ended: async (run, outcome): Promise<AgentRunReply> => {
            told.push('recorded');
            return { ...replyOf(run, outcome), session_cost_so_far: 0.5 };
          },
        },
      },
    );

    const host = ['registered', 'held', 'let go', 'hooks told', 'journal closed', 'recorded'];
    expect(told.filter((step) => host.includes(step) || step.startsWith('run_'))).toEqual([
      'registered',
      'run_start',
      'held',
      'let go',
      'hooks told',
      'journal closed',
      'recorded',
      'run_end',
    ]);
    expect(result).toMatchObject({ reply: 'four', session_cost_so_far: 0.5, phase: 'completed' });
  });

  it('tells no run_end when the host could not record the end', async () => {
    const { agent, told } = hosted([finalAnswer('four')]);

    const ended = agent.execute(
      { message: 'two and two?' },
      { host: { ended: () => Promise.reject(new Error('fenced')) } },
    );

    await expect(ended).rejects.toThrow('fenced');
    expect(told).not.toContain('run_end');
  });

  it('drops a run the host lost meanwhile: journal closed, hooks and host not told of an end', async () => {
    const { agent, told } = hosted([finalAnswer('four')]);
    let recorded = false;

    const ended = agent.execute(
      { message: 'two and two?' },
      {
        host: {
          lost: () => new Error('handed over'),
          ended: async (run, outcome) => ((recorded = true), replyOf(run, outcome)),
        },
      },
    );

    await expect(ended).rejects.toThrow('handed over');
    expect(told).toContain('journal closed');
    expect(told).not.toContain('hooks told');
    expect(recorded).toBe(false);
  });

  it('carries a run on from its journal: journaled steps answered from it, the rest live, resumed told', async () => {
    const journal = new InMemoryRunJournal();
    const first = hosted([action('add', { a: 2, b: 2 }), finalAnswer('4')], journal);
    await first.agent.execute({ message: 'two and two?', runId: 'run_h2' });
    const entries = journal.load('run_h2');
    // the run stopped after its call: the journal holds the model step and the call, not the answer
    const cut = entries.filter((entry) => entry.step === 1);
    const second = hosted([finalAnswer('four, again')], new InMemoryRunJournal());

    const result = await second.agent.execute(
      { message: 'two and two?', runId: 'run_h2' },
      {
        resume: {
          replay: new JournalReplay(cut),
          resumed: { run_id: 'run_h2', takeovers: 1, step: 2 },
          marker: { step: 2, kind: 'takeover', observation: 'taken over', elapsed_ms: 0 },
        },
      },
    );

    expect(result.reply).toBe('four, again');
    expect(second.functions.calls).toHaveLength(0);
    expect(second.model.requests).toHaveLength(1);
    expect(second.told).toContain('run_resumed');
    expect(second.told).not.toContain('run_start');
    expect(result.trace.map((step) => step.kind)).toEqual(['action', 'takeover', 'final']);
  });
});
