import type { RunView, TraceStep } from '@app/client';
import { compact, type Style } from './style';

/** A run's trace as a tree: the run, then each step with its action and observation, then the reply. */
export function traceTree(run: RunView, s: Style): string {
  const head =
    `${s.bold(run.id)}  ${run.agent} (${run.mode})  ${run.status}` +
    `${run.finish_reason ? ` · ${run.finish_reason}` : ''}` +
    `${run.total_ms !== null ? `  ${run.total_ms} ms` : ''}` +
    `  tokens ${run.usage.prompt_tokens}+${run.usage.completion_tokens}`;
  const items: string[][] = [[`input: ${compact(run.input, 200)}`]];
  if (run.plan)
    items.push([
      `plan (revision ${run.plan.revision})`,
      ...run.plan.steps.map(
        (p) =>
          `${p.index + 1}. ${p.description} [${p.tool}] ${p.status}${p.error ? ` ${s.red(p.error)}` : ''}`,
      ),
    ]);
  for (const step of run.trace) items.push(stepLines(step, s));
  if (run.error) items.push([s.red(`error: ${run.error}`)]);
  if (run.reply !== null) items.push([`reply: ${compact(run.reply, 400)}`]);
  const lines = [head];
  items.forEach((item, i) => {
    const last = i === items.length - 1;
    lines.push(`${last ? '└─' : '├─'} ${item[0]}`);
    item.slice(1).forEach((child, j) => {
      lines.push(`${last ? '   ' : '│  '}${j === item.length - 2 ? '└─' : '├─'} ${child}`);
    });
  });
  return lines.join('\n');
}

function stepLines(step: TraceStep, s: Style): string[] {
  const tokens = step.tokens ? `, ${step.tokens.prompt_tokens}+${step.tokens.completion_tokens} tokens` : '';
  const action = step.action
    ? ` ${s.cyan(step.action.tool)} ${s.dim(compact(step.action.args, 80))}`
    : step.hook
      ? ` ${s.cyan(step.hook.event)} ${step.hook.target} ${s.dim(hookVerdict(step.hook))}`
      : '';
  const children: string[] = [];
  if (step.thought) children.push(s.dim(`thought: ${compact(step.thought, 160)}`));
  if (step.observation !== undefined) children.push(`observation: ${compact(step.observation, 160)}`);
  if (step.error) children.push(s.red(`error: ${compact(step.error, 160)}`));
  return [
    `step ${step.step} ${step.kind}${action} ${s.dim(`(${step.elapsed_ms} ms${tokens})`)}`,
    ...children,
  ];
}

function hookVerdict(hook: NonNullable<TraceStep['hook']>): string {
  return [hook.outcome, hook.decision, hook.policy].filter(Boolean).join(' ');
}
