import type { Command } from 'commander';
import type { RunStatus } from '@app/contracts';
import { ChatPrinter } from '../chat-printer';
import { type CliContext, integer, jsonObject } from '../context';
import { EXIT_ERROR, EXIT_OK, exitCodeOf } from '../exit-codes';
import { table } from '../style';
import { traceTree } from '../trace-tree';
import { runStudioCommands } from './run-studio.commands';

type Json = { json?: boolean };
type Decision = Json & { hash?: string; call?: string };

/** The held call a decision names: its hash, and its id when given. */
function target(opts: Decision): { hash: string; call_id?: string } {
  return { hash: opts.hash as string, ...(opts.call ? { call_id: opts.call } : {}) };
}
type RunFilters = { session?: string; status?: string; agent?: string; limit?: number; cursor?: string };

/** sessions, runs, agents, functions and health. */
export function resourceCommands(program: Command, ctx: CliContext): void {
  const sessions = program.command('sessions').description('conversation history');
  sessions
    .command('list')
    .description('your sessions, most recently active first')
    .option('-q, --query <text>', 'only sessions whose title or messages contain this text')
    .option('--limit <n>', 'how many (1 to 100)', (v) => integer('--limit', v))
    .option('--cursor <cursor>', 'the next_cursor of a previous page')
    .option('--json', 'print JSON')
    .action(async (opts: Json & { query?: string; limit?: number; cursor?: string }, cmd: Command) => {
      const page = await ctx
        .client(cmd)
        .sessions.list({ q: opts.query, limit: opts.limit, cursor: opts.cursor });
      if (opts.json) return ctx.json(page);
      ctx.line(
        table(page.items as unknown as Record<string, unknown>[], ['id', 'agent', 'updated_at', 'title']),
      );
      if (page.next_cursor) ctx.line(ctx.style.dim(`more: --cursor ${page.next_cursor}`));
    });
  sessions
    .command('show')
    .argument('<id>', 'session id')
    .option('--json', 'print JSON')
    .action(async (id: string, opts: Json, cmd: Command) => {
      const session = await ctx.client(cmd).sessions.get(id);
      if (opts.json) return ctx.json(session);
      ctx.line(
        `${ctx.style.bold(session.id)}  agent ${session.agent}${session.title ? `  ${session.title}` : ''}`,
      );
      if (session.summary) ctx.line(ctx.style.dim(`summary: ${session.summary}`));
      for (const m of session.messages)
        ctx.line(
          `${ctx.style.dim(`${m.seq}`.padStart(3))} ${m.role === 'user' ? ctx.style.cyan('you') : 'agent'}: ${m.content}`,
        );
    });
  sessions
    .command('delete')
    .argument('<id>', 'session id')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      await ctx.client(cmd).sessions.delete(id);
      ctx.line(`deleted ${id}`);
    });

  const runs = program.command('runs').description('agent runs: traces and verbs');
  runs
    .command('list')
    .description('your runs, newest first')
    .option('--session <id>', 'only this session’s')
    .option('--status <status>', 'only runs in this status (running, completed, failed, …)')
    .option('--agent <name>', 'only this agent’s')
    .option('--limit <n>', 'how many (1 to 100)', (v) => integer('--limit', v))
    .option('--cursor <cursor>', 'the next_cursor of a previous page')
    .option('--json', 'print JSON')
    .action(async (opts: Json & RunFilters, cmd: Command) => {
      const page = await ctx.client(cmd).runs.list({
        session_id: opts.session,
        status: opts.status as RunStatus | undefined,
        agent: opts.agent,
        limit: opts.limit,
        cursor: opts.cursor,
      });
      if (opts.json) return ctx.json(page);
      const rows = page.items.map((run) => ({ ...run, input: run.input.slice(0, 60) }));
      ctx.line(table(rows, ['id', 'status', 'finish_reason', 'agent', 'created_at', 'input']));
      if (page.next_cursor) ctx.line(ctx.style.dim(`more: --cursor ${page.next_cursor}`));
    });
  runs
    .command('show')
    .argument('<id>', 'run id')
    .option('--json', 'print JSON')
    .action(async (id: string, opts: Json, cmd: Command) => {
      const run = await ctx.client(cmd).runs.trace(id);
      if (opts.json) ctx.json(run);
      else ctx.line(traceTree(run, ctx.style));
    });
  runs
    .command('cancel')
    .argument('<id>', 'run id')
    .option('--json', 'print JSON')
    .action(async (id: string, opts: Json, cmd: Command) => {
      const reply = await ctx.client(cmd).runs.cancel(id);
      if (opts.json) ctx.json(reply);
      else ctx.line(`${reply.run_id}: ${reply.finish_reason}`);
    });
  runs
    .command('reject')
    .description('reject a plan held for approval, or a held function call (--hash)')
    .argument('<id>', 'run id')
    .option('--hash <hash>', 'the held call’s hash, as approval_required showed it')
    .option('--call <call_id>', 'the held call, when the run holds more than one')
    .option(
      '--reason <text>',
      'what the model reads as the call’s error; a plan’s, recorded with its rejection',
    )
    .option('--json', 'print JSON')
    .action(async (id: string, opts: Decision & { reason?: string }, cmd: Command) => {
      const reason = opts.reason ? { reason: opts.reason } : {};
      const decision = opts.hash ? { ...target(opts), ...reason } : opts.reason ? reason : undefined;
      const reply = await ctx.client(cmd).runs.reject(id, decision);
      if (opts.json) ctx.json(reply);
      else ctx.line(`${reply.run_id}: ${reply.finish_reason}`);
    });
  runs
    .command('approve')
    .description('run a plan held for approval, or a held function call (--hash), streaming the run')
    .argument('<id>', 'run id')
    .option('--hash <hash>', 'the held call’s hash, as approval_required showed it')
    .option('--call <call_id>', 'the held call, when the run holds more than one')
    .option('--edit <json>', 'run the call with these arguments instead')
    .option('--respond <json>', 'do not run the call; the model reads this JSON object as its result')
    .option('--json', 'wait for the end and print the response as JSON')
    .action(async (id: string, opts: Decision & { edit?: string; respond?: string }, cmd: Command) => {
      const client = ctx.client(cmd);
      const edit = jsonObject('--edit', opts.edit);
      const result = jsonObject('--respond', opts.respond);
      const decision = opts.hash
        ? {
            ...target(opts),
            ...(edit ? { edit: { arguments: edit } } : {}),
            ...(result ? { respond: { result } } : {}),
          }
        : undefined;
      if (opts.json) {
        const reply = await client.runs.approve(id, decision);
        ctx.json(reply);
        return void (ctx.exitCode = exitCodeOf(reply.finish_reason));
      }
      const printer = new ChatPrinter(ctx.io.out, ctx.io.err, ctx.style);
      for await (const event of client.runs.approveStream(id, { decision })) printer.print(event);
      ctx.exitCode = printer.reply ? exitCodeOf(printer.reply.finish_reason) : EXIT_ERROR;
    });

  runStudioCommands(runs, ctx);

  const agents = program.command('agents').description('agent profiles');
  agents
    .command('list')
    .option('--json', 'print JSON')
    .action(async (opts: Json, cmd: Command) => {
      const list = await ctx.client(cmd).agents.list();
      if (opts.json) ctx.json(list);
      else
        ctx.line(
          table(list as unknown as Record<string, unknown>[], [
            'name',
            'source',
            'mode',
            'protocol',
            'description',
          ]),
        );
    });
  agents
    .command('show')
    .argument('<name>', 'agent name')
    .action(async (name: string, _opts: unknown, cmd: Command) =>
      ctx.json(await ctx.client(cmd).agents.get(name)),
    );

  const functions = program.command('functions').description('the function catalogue; direct calls');
  functions
    .command('list')
    .option('--json', 'print JSON')
    .action(async (opts: Json, cmd: Command) => {
      const list = await ctx.client(cmd).functions.list();
      if (opts.json) return ctx.json(list);
      const rows = list.map((f) => ({ ...f, params: Object.keys(f.parameters.properties).join(',') }));
      ctx.line(table(rows, ['name', 'provider', 'params', 'description']));
    });
  functions
    .command('show')
    .argument('<name>', 'function name')
    .action(async (name: string, _opts: unknown, cmd: Command) =>
      ctx.json(await ctx.client(cmd).functions.get(name)),
    );
  functions
    .command('invoke')
    .description('call one function directly; exit 1 when it fails')
    .argument('<name>', 'function name')
    .option('-p, --params <json>', 'the parameters as a JSON object', '{}')
    .option('--timeout <ms>', 'the call’s time limit in milliseconds', (v) => integer('--timeout', v))
    .option('--json', 'print the whole reply as JSON')
    .action(async (name: string, opts: { params: string; timeout?: number } & Json, cmd: Command) => {
      const params = jsonObject('--params', opts.params);
      const reply = await ctx.client(cmd).functions.invoke(name, { params, timeout_ms: opts.timeout });
      if (opts.json) ctx.json(reply);
      else if (reply.status === 'success') {
        const { data, markdown, message } = reply.result;
        if (markdown ?? message) ctx.line(markdown ?? message);
        if (data !== undefined) ctx.show(data);
      } else ctx.warn(`${ctx.errStyle.red('failed')}: ${reply.error.message} (${reply.error.code})`);
      ctx.exitCode = reply.status === 'success' ? EXIT_OK : EXIT_ERROR;
    });

  program
    .command('health')
    .description('the platform’s health; exit 1 when something is down')
    .option('--json', 'print JSON')
    .action(async (opts: Json, cmd: Command) => {
      const report = await ctx.client(cmd).health();
      if (opts.json) ctx.json(report);
      else {
        const parts = {
          ...report.services,
          nats: report.nats,
          database: report.database,
          redis: report.redis,
          llm: report.llm,
        };
        ctx.line(`${report.status === 'ok' ? ctx.style.green('ok') : ctx.style.red(report.status)}`);
        for (const [name, state] of Object.entries(parts))
          ctx.line(`  ${name.padEnd(16)} ${state === 'ok' ? state : ctx.style.red(state)}`);
      }
      ctx.exitCode = report.status === 'ok' ? EXIT_OK : EXIT_ERROR;
    });
}
