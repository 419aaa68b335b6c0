import { Events } from './events';
import { bucketPublishSubjects, streamPublishSubjects } from './jetstream-grants';
import { AGENT_FUNCTION_PREFIX } from './functions';
import { SERVICE_NAMES, type ServiceName } from './health';
import { Routes } from './routes';
import { TaskFunctionNames } from './scheduler';
import { ANY_TOKEN, Subjects } from './subjects';

/** The JetStream key-value buckets of the platform. */
export const Buckets = {
  /** The outcomes of calls sent with an idempotency key, kept by the function providers. */
  fnOutcomes: 'fn_outcomes',
} as const;

/**
 * The JetStream streams of the platform (besides the buckets'): each keeps the events published on
 * some subjects for a while, for readers to read again.
 */
export const Streams = {
  /** Every run's events (`agent.events.<run>`): a stream that lost its connection resumes from them. */
  runEvents: { name: 'RUN_EVENTS', subjects: [Events.agentEvents(ANY_TOKEN).subject] },
} as const;

/**
 * What one service does on the bus. A route or event may name a family of subjects with
 * `ANY_TOKEN` (`agent.events.*`), or with a token that ends in `*` for every token starting so
 * (`fn.exec.agent_*`: NATS itself can only grant the whole token, `fn.exec.*`).
 */
/** A route or an event: what travels on one subject (or a family of them). */
type OnSubject = { readonly subject: string };

export interface BusUse {
  /** Routes it asks: it publishes their requests and hears the replies on its own inbox. */
  asks: readonly OnSubject[];
  /** Routes it serves: it subscribes to their requests and answers each asker's inbox. */
  serves: readonly OnSubject[];
  /** Events it publishes. */
  publishes: readonly OnSubject[];
  /** Events it subscribes to. */
  hears: readonly OnSubject[];
  /** JetStream key-value buckets it opens, reads, writes and watches. */
  buckets: readonly string[];
  /** JetStream streams (of `Streams`) it opens (creating or updating them) and reads. */
  streams: readonly string[];
}

const all = (...items: OnSubject[]): readonly OnSubject[] => items;
/** What every function provider does: serve its functions, the catalogue and cancels; announce; record calls. */
const functionProvider = (
  functions: readonly OnSubject[],
): Pick<BusUse, 'asks' | 'serves' | 'publishes' | 'hears'> => ({
  asks: all(Routes.fnCallsRecord),
  serves: all(...functions, Routes.fnCatalog),
  publishes: all(Events.fnAnnounce),
  hears: all(Events.fnCancel),
});
/** What every function caller does: call functions (and cancel them), list the catalogue and follow its changes. */
const functionCaller: Pick<BusUse, 'asks' | 'publishes' | 'hears'> = {
  asks: all(Routes.fnExec(ANY_TOKEN), Routes.fnCatalog),
  publishes: all(Events.fnCancel),
  hears: all(Events.fnAnnounce),
};

/**
 * Every service's use of the bus, declared once: the NATS permissions of each deployment
 * (`deploy/nats/auth.conf`, the Kubernetes overlays, the credentials component) grant what
 * `natsGrants` derives from it, and tests hold both the declaration and the grants to what the
 * services really do.
 */
export const BusUses: Record<ServiceName, BusUse> = {
  gateway: {
    asks: all(
      Routes.agentRun,
      Routes.agentRunApprove,
      Routes.agentRunGet,
      Routes.agentRunList,
      Routes.agentRunCancel,
      Routes.agentRunReject,
      Routes.agentMessageRoute,
      Routes.agentSessionGet,
      Routes.agentSessionList,
      Routes.agentSessionDelete,
      Routes.agentMemorySearch,
      Routes.agentMemoryForget,
      Routes.agentProfileList,
      Routes.agentProfileGet,
      Routes.agentProfileCreate,
      Routes.agentProfileUpdate,
      Routes.agentProfileDelete,
      Routes.agentRunFork,
      Routes.agentRunStepMessages,
      Routes.agentUsageStats,
      Routes.fnInvoke,
      Routes.fnCatalog,
      ...SERVICE_NAMES.filter((s) => s !== 'gateway').map((s) => Routes.servicePing(s)),
      Routes.schedulerDelayCreate,
      Routes.schedulerDelayList,
      Routes.schedulerDelayGet,
      Routes.schedulerDelayCancel,
      Routes.schedulerCronCreate,
      Routes.schedulerCronList,
      Routes.schedulerCronGet,
      Routes.schedulerCronDelete,
    ),
    serves: all(Routes.servicePing('gateway')),
    publishes: all(),
    // a run's events are read from the stream that keeps them (`streams`), on its own inbox; a
    // reader without a consumer (direct gets) hears the run's publishes as a doorbell
    hears: all(Events.agentRunResumed, Events.agentEvents(ANY_TOKEN), Events.fnAnnounce),
    buckets: [],
    streams: [Streams.runEvents.name],
  },
  'agent-executor': {
    asks: all(
      ...functionCaller.asks,
      ...functionProvider([]).asks,
      Routes.agentRunInterrupt(ANY_TOKEN),
      Routes.agentRunInbox(ANY_TOKEN),
    ),
    serves: all(
      Routes.agentRun,
      Routes.agentRunApprove,
      Routes.agentRunGet,
      Routes.agentRunList,
      Routes.agentRunCancel,
      Routes.agentRunReject,
      // its own instance's: the runs it holds
      Routes.agentRunInterrupt(ANY_TOKEN),
      Routes.agentRunInbox(ANY_TOKEN),
      Routes.agentMessageRoute,
      Routes.agentSessionGet,
      Routes.agentSessionList,
      Routes.agentSessionDelete,
      Routes.agentMemorySearch,
      Routes.agentMemoryForget,
      Routes.agentProfileList,
      Routes.agentProfileGet,
      Routes.agentProfileCreate,
      Routes.agentProfileUpdate,
      Routes.agentProfileDelete,
      Routes.agentRunFork,
      Routes.agentRunStepMessages,
      Routes.agentUsageStats,
      Routes.fnInvoke,
      Routes.fnCallsRecord,
      Routes.servicePing('agent-executor'),
      // agents served as functions
      ...functionProvider([Routes.fnExec(`${AGENT_FUNCTION_PREFIX}*`)]).serves,
    ),
    publishes: all(
      Events.agentEvents(ANY_TOKEN),
      Events.agentRunResumed,
      Events.agentProfileChanged,
      ...functionCaller.publishes,
      ...functionProvider([]).publishes,
    ),
    hears: all(Events.agentProfileChanged, ...functionCaller.hears, ...functionProvider([]).hears),
    buckets: [Buckets.fnOutcomes],
    streams: [],
  },
  'function-runner': {
    ...functionProvider([Routes.fnExec(ANY_TOKEN)]),
    serves: all(
      ...functionProvider([Routes.fnExec(ANY_TOKEN)]).serves,
      Routes.servicePing('function-runner'),
    ),
    buckets: [Buckets.fnOutcomes],
    streams: [],
  },
  scheduler: {
    asks: all(...functionCaller.asks, ...functionProvider([]).asks, Routes.agentRun, Routes.agentProfileGet),
    serves: all(
      Routes.schedulerDelayCreate,
      Routes.schedulerDelayList,
      Routes.schedulerDelayGet,
      Routes.schedulerDelayCancel,
      Routes.schedulerCronCreate,
      Routes.schedulerCronList,
      Routes.schedulerCronGet,
      Routes.schedulerCronDelete,
      Routes.servicePing('scheduler'),
      ...functionProvider(Object.values(TaskFunctionNames).map((name) => Routes.fnExec(name))).serves,
    ),
    publishes: all(...functionCaller.publishes, ...functionProvider([]).publishes),
    hears: all(...functionCaller.hears, ...functionProvider([]).hears),
    buckets: [Buckets.fnOutcomes],
    streams: [],
  },
};

/** The subjects a NATS user may publish to and subscribe to. */
export interface NatsGrants {
  publish: string[];
  subscribe: string[];
}

/**
 * The NATS permissions that let `service` do exactly what `BusUses` declares: what it asks and
 * publishes; the inboxes of the services that ask what it serves (its replies); what it serves
 * and hears; its own inbox; and the JetStream API of its buckets, as the official clients use it.
 * A family the declaration names by a token prefix (`agent_*`) is granted its whole token (`*`).
 */
export function natsGrants(service: ServiceName): NatsGrants {
  const use = BusUses[service];
  const askers = SERVICE_NAMES.filter((asker) =>
    BusUses[asker].asks.some((asked) =>
      use.serves.some((served) => subjectsMeet(asked.subject, served.subject)),
    ),
  );
  const ownInbox =
    use.asks.length > 0 || use.buckets.length > 0 || use.streams.length > 0
      ? [`${Subjects.inbox(service)}.>`]
      : [];
  return {
    publish: fewest([
      ...use.asks.map((r) => r.subject),
      ...use.publishes.map((e) => e.subject),
      ...askers.map((asker) => `${Subjects.inbox(asker)}.>`),
      ...use.buckets.flatMap(bucketPublishSubjects),
      ...use.streams.flatMap(streamPublishSubjects),
    ]),
    subscribe: fewest([...ownInbox, ...use.serves.map((r) => r.subject), ...use.hears.map((e) => e.subject)]),
  };
}

/** Whether subject `grant` (a NATS pattern) covers every subject of `use` (a pattern of `BusUses`). */
export function subjectCovers(grant: string, use: string): boolean {
  const g = grant.split('.');
  const u = use.split('.');
  for (let i = 0; i < g.length; i++) {
    if (g[i] === '>') return u.length > i;
    if (i >= u.length) return false;
    if (g[i] === ANY_TOKEN) continue;
    if (g[i] !== u[i]) return false;
  }
  return g.length === u.length;
}

/** Whether two patterns share a subject (one could ask what the other serves). */
function subjectsMeet(a: string, b: string): boolean {
  const x = a.split('.');
  const y = b.split('.');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] === '>' || y[i] === '>') return i < x.length && i < y.length;
    if (x[i] === undefined || y[i] === undefined) return false;
    if (!tokensMeet(x[i], y[i])) return false;
  }
  return true;
}

function tokensMeet(a: string, b: string): boolean {
  if (a === ANY_TOKEN || b === ANY_TOKEN) return true;
  if (a.endsWith('*'))
    return b.startsWith(a.slice(0, -1)) || (b.endsWith('*') && a.startsWith(b.slice(0, -1)));
  if (b.endsWith('*')) return a.startsWith(b.slice(0, -1));
  return a === b;
}

/** A pattern NATS can grant: a token ending in `*` (a prefix) widens to the whole token. */
function grantable(subject: string): string {
  return subject
    .split('.')
    .map((token) => (token.length > 1 && token.endsWith('*') ? ANY_TOKEN : token))
    .join('.');
}

/** The grantable patterns, each once, without those another of them covers. */
function fewest(subjects: string[]): string[] {
  const patterns = [...new Set(subjects.map(grantable))];
  return patterns.filter((s) => !patterns.some((other) => other !== s && subjectCovers(other, s)));
}
