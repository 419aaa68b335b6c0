import type { Command } from 'commander';
import type { CreateApiKeyRequest, DelayStatus, Scope } from '@app/client';
import { type CliContext, integer, jsonObject } from '../context';
import { table } from '../style';

type Json = { json?: boolean };
interface TargetOptions {
  function?: string;
  params?: string;
  message?: string;
  agent?: string;
  session?: string;
}

/** delays, crons and API keys. */
export function taskCommands(program: Command, ctx: CliContext): void {
  const delays = program.command('delays').description('one-off scheduled tasks');
  delays
    .command('list')
    .option('--status <status>', 'only tasks in this status (pending, completed, …)')
    .option('--json', 'print JSON')
    .action(async (opts: { status?: DelayStatus } & Json, cmd: Command) => {
      const list = await ctx.client(cmd).delays.list({ status: opts.status });
      if (opts.json) ctx.json(list);
      else ctx.line(table(rows(list), ['name', 'status', 'run_at', 'function', 'agent', 'owner']));
    });
  delays
    .command('show')
    .argument('<name>', 'task name')
    .action(async (name: string, _opts: unknown, cmd: Command) =>
      ctx.json(await ctx.client(cmd).delays.get(name)),
    );
  targetOptions(
    delays
      .command('create')
      .description(
        'a task run once at a time: a function (--function, --params) or an agent turn (--message)',
      )
      .requiredOption('-n, --name <name>', 'task name')
      .requiredOption('--at <time>', 'when, ISO 8601 with an offset, e.g. 2026-12-25T09:00:00+08:00')
      .option('--misfire <policy>', 'missed or run_once: what a time missed while no scheduler ran does'),
  ).action(
    async (
      opts: TargetOptions & Json & { name: string; at: string; misfire?: 'missed' | 'run_once' },
      cmd,
    ) => {
      const task = await ctx
        .client(cmd)
        .delays.create({ name: opts.name, run_at: opts.at, misfire_policy: opts.misfire, ...target(opts) });
      if (opts.json) ctx.json(task);
      else ctx.line(`created delay ${task.name}: ${task.status}, runs at ${task.run_at}`);
    },
  );
  delays
    .command('cancel')
    .argument('<name>', 'task name')
    .option('--json', 'print JSON')
    .action(async (name: string, opts: Json, cmd: Command) => {
      const task = await ctx.client(cmd).delays.cancel(name);
      if (opts.json) ctx.json(task);
      else ctx.line(`delay ${task.name}: ${task.status}`);
    });

  const crons = program.command('crons').description('recurring scheduled tasks');
  crons
    .command('list')
    .option('--name <name>', 'only this name')
    .option('--json', 'print JSON')
    .action(async (opts: { name?: string } & Json, cmd: Command) => {
      const list = await ctx.client(cmd).crons.list({ name: opts.name });
      if (opts.json) ctx.json(list);
      else
        ctx.line(
          table(rows(list), [
            'name',
            'cron_expr',
            'timezone',
            'next_run_at',
            'run_count',
            'function',
            'agent',
          ]),
        );
    });
  crons
    .command('show')
    .argument('<name>', 'task name')
    .action(async (name: string, _opts: unknown, cmd: Command) =>
      ctx.json(await ctx.client(cmd).crons.get(name)),
    );
  targetOptions(
    crons
      .command('create')
      .description('a recurring task: a function (--function, --params) or an agent turn (--message)')
      .requiredOption('-n, --name <name>', 'task name')
      .requiredOption('--cron <expr>', "cron expression, e.g. '0 9 * * 1-5'")
      .option('--timezone <tz>', 'IANA time zone the expression is read in')
      .option('--until <time>', 'no runs after this time (ISO 8601 with an offset)')
      .option('--max-runs <n>', 'stop after this many runs (0: no limit)', (v) => integer('--max-runs', v)),
  ).action(
    async (
      opts: TargetOptions &
        Json & { name: string; cron: string; timezone?: string; until?: string; maxRuns?: number },
      cmd,
    ) => {
      const task = await ctx.client(cmd).crons.create({
        name: opts.name,
        cron_expr: opts.cron,
        timezone: opts.timezone,
        until: opts.until,
        max_runs: opts.maxRuns,
        ...target(opts),
      });
      if (opts.json) ctx.json(task);
      else ctx.line(`created cron ${task.name}: next run ${task.next_run_at ?? '-'}`);
    },
  );
  crons
    .command('delete')
    .argument('<name>', 'task name')
    .option('--json', 'print JSON')
    .action(async (name: string, opts: Json, cmd: Command) => {
      const task = await ctx.client(cmd).crons.delete(name);
      if (opts.json) ctx.json(task);
      else ctx.line(`deleted cron ${task.name}`);
    });

  const keys = program.command('keys').description('API keys (admin)');
  keys
    .command('create')
    .description('a new key, shown once')
    .requiredOption('-n, --name <name>', 'what the key is for')
    .requiredOption(
      '--scopes <list>',
      'comma-separated: chat, functions:read, functions:invoke, tasks:read, tasks:write, admin',
    )
    .option('--principal <principal>', 'whose resources the key acts for')
    .option('--json', 'print JSON')
    .action(async (opts: { name: string; scopes: string; principal?: string } & Json, cmd: Command) => {
      const request: CreateApiKeyRequest = {
        name: opts.name,
        scopes: opts.scopes
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean) as Scope[],
        principal: opts.principal,
      };
      const key = await ctx.client(cmd).keys.create(request);
      if (opts.json) return ctx.json(key);
      ctx.line(key.key);
      ctx.warn(
        ctx.errStyle.dim(
          `id ${key.id}, principal ${key.principal}, scopes ${key.scopes.join(',')}: shown once, keep it`,
        ),
      );
    });
  keys
    .command('list')
    .option('--json', 'print JSON')
    .action(async (opts: Json, cmd: Command) => {
      const list = await ctx.client(cmd).keys.list();
      if (opts.json) ctx.json(list);
      else
        ctx.line(
          table(rows(list), ['id', 'name', 'prefix', 'principal', 'scopes', 'revoked_at', 'last_used_at']),
        );
    });
  keys
    .command('revoke')
    .argument('<id>', 'key id')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      await ctx.client(cmd).keys.revoke(id);
      ctx.line(`revoked ${id}`);
    });
}

function targetOptions(command: Command): Command {
  return command
    .option('-f, --function <name>', 'the function to run')
    .option('-p, --params <json>', 'its parameters as a JSON object')
    .option('-m, --message <text>', 'an agent turn instead of a function')
    .option('-a, --agent <name>', 'the agent for --message')
    .option('-s, --session <id>', 'the session for --message')
    .option('--json', 'print JSON');
}

function target(opts: TargetOptions) {
  return {
    function: opts.function,
    params: jsonObject('--params', opts.params),
    message: opts.message,
    agent: opts.agent,
    session_id: opts.session,
  };
}

function rows<T extends object>(list: T[]): Record<string, unknown>[] {
  return list as unknown as Record<string, unknown>[];
}
