import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ANY_TOKEN,
  BusUses,
  Events,
  natsGrants,
  type NatsGrants,
  Routes,
  SERVICE_NAMES,
  type ServiceName,
  Streams,
  subjectCovers,
} from '@app/contracts';

const REPO_ROOT = resolve(__dirname, '../../..');
const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

/**
 * What a deployment grants beyond what the services declare they use, and why. NATS matches
 * whole tokens, so a family named by a token prefix is granted the whole token.
 */
const BEYOND_USE: Record<string, string> = {
  'agent-executor subscribe fn.exec.*':
    'it serves agent_<name> only (agents as functions, named at run time); it may call every function already',
};

/** The users of an auth.conf and what each may publish and subscribe to. */
function authConfGrants(text: string): Record<string, NatsGrants & { other: string[] }> {
  const conf = text.replace(/#.*$/gm, '');
  const blocks = new Map<string, string>();
  for (const m of conf.matchAll(/^\s*([A-Z_]+)\s*=\s*\{([^}]*)\}/gm)) blocks.set(m[1], m[2]);
  const strings = (list = '') => [...list.matchAll(/"([^"]*)"/g)].map((s) => s[1]);
  const users: Record<string, NatsGrants & { other: string[] }> = {};
  for (const m of conf.matchAll(/\{\s*user:\s*"([^"]+)"[^}]*permissions:\s*\$([A-Z_]+)\s*\}/g)) {
    const body = blocks.get(m[2]) ?? '';
    users[m[1]] = {
      publish: strings(/publish:\s*\[([^\]]*)\]/.exec(body)?.[1]),
      subscribe: strings(/subscribe:\s*\[([^\]]*)\]/.exec(body)?.[1]),
      // any other permission (allow_responses, deny lists) is a grant the declaration does not make
      other: [...body.replace(/\w+:\s*\[[^\]]*\]/g, '').matchAll(/(\w+)\s*:/g)].map((k) => k[1]),
    };
  }
  return users;
}

/** The users `create-users.sh` makes with nsc, and what each may publish and subscribe to. */
function nscGrants(script: string): Record<string, NatsGrants & { other: string[] }> {
  const users: Record<string, NatsGrants & { other: string[] }> = {};
  for (const block of script.split(/^user /m).slice(1)) {
    const name = block.split(/\s/)[0];
    const flag = (f: string) =>
      [...block.matchAll(new RegExp(`--${f} '([^']*)'`, 'g'))].flatMap((m) => m[1].split(','));
    users[name] = {
      publish: flag('allow-pub'),
      subscribe: flag('allow-sub'),
      other: [...block.matchAll(/--([a-z-]+)/g)].map((m) => m[1]).filter((f) => !/^allow-(pub|sub)$/.test(f)),
    };
  }
  return users;
}

const deployments: [string, Record<string, NatsGrants & { other: string[] }>][] = [
  ['deploy/nats/auth.conf', authConfGrants(read('deploy/nats/auth.conf'))],
  ['deploy/k8s/overlays/dev/auth.conf', authConfGrants(read('deploy/k8s/overlays/dev/auth.conf'))],
  [
    'deploy/k8s/components/nats-creds/create-users.sh',
    nscGrants(read('deploy/k8s/components/nats-creds/create-users.sh')),
  ],
];

describe.each(deployments)('the NATS users of %s', (_file, users) => {
  it('are the four services', () => {
    expect(Object.keys(users).sort()).toEqual([...SERVICE_NAMES].sort());
  });

  it.each(SERVICE_NAMES)('grant the %s exactly what it uses, and nothing else', (service) => {
    const expected = natsGrants(service);
    const granted = users[service];
    expect({ publish: [...granted.publish].sort(), subscribe: [...granted.subscribe].sort() }).toEqual({
      publish: [...expected.publish].sort(),
      subscribe: [...expected.subscribe].sort(),
    });
    expect(granted.other).toEqual([]);
  });
});

describe('BusUses', () => {
  /** Every subject of a family of `Routes` or `Events`, by its pattern. */
  const subjectsOf = (table: Record<string, unknown>) =>
    Object.entries(table).flatMap(([name, entry]) =>
      typeof entry === 'function'
        ? name === 'servicePing'
          ? SERVICE_NAMES.map((s) => [name, (entry as (s: string) => { subject: string })(s).subject])
          : [[name, (entry as (a: string) => { subject: string })(ANY_TOKEN).subject]]
        : [[name, (entry as { subject: string }).subject]],
    );
  const meets = (a: string, b: string) => subjectCovers(a, b) || subjectCovers(b, a);
  /** Events kept in a stream are heard by its readers, on their own inboxes. */
  const readFromStream = (service: ServiceName, subject: string) =>
    Object.values(Streams).some(
      (stream) =>
        BusUses[service].streams.includes(stream.name) && stream.subjects.some((s) => meets(s, subject)),
    );
  const declared = (way: 'asks' | 'serves' | 'publishes' | 'hears', subject: string) =>
    SERVICE_NAMES.filter(
      (s) =>
        BusUses[s][way].some((u) => meets(u.subject, subject)) ||
        (way === 'hears' && readFromStream(s, subject)),
    );

  it.each(subjectsOf(Routes))('declares who asks and who serves the route %s (%s)', (name, subject) => {
    // the gateway serves its own ping, which no one asks (another gateway is not a service it watches)
    if (name !== 'servicePing' || subject !== 'svc.ping.gateway')
      expect(declared('asks', subject)).not.toEqual([]);
    expect(declared('serves', subject)).not.toEqual([]);
  });

  it.each(subjectsOf(Events).filter(([name]) => name !== 'fnCallsRecorded'))(
    'declares who publishes and who hears the event %s (%s)',
    (_name, subject) => {
      expect(declared('publishes', subject)).not.toEqual([]);
      expect(declared('hears', subject)).not.toEqual([]);
    },
  );
});

describe('natsGrants', () => {
  it('grants beyond the declared use only where NATS cannot grant less, and says why', () => {
    const beyond = SERVICE_NAMES.flatMap((service) => {
      const use = declaredSubjects(service);
      const grants = natsGrants(service);
      return (['publish', 'subscribe'] as const).flatMap((way) =>
        grants[way].filter((g) => !use[way].includes(g)).map((g) => `${service} ${way} ${g}`),
      );
    });
    expect(beyond.sort()).toEqual(Object.keys(BEYOND_USE).sort());
  });

  it('lets each service read its own replies only, and answer the services that ask it', () => {
    expect(natsGrants('function-runner').subscribe).toContain('_INBOX.function-runner.>');
    expect(natsGrants('function-runner').publish).toEqual(
      expect.arrayContaining(['_INBOX.agent-executor.>', '_INBOX.scheduler.>', '_INBOX.gateway.>']),
    );
    for (const service of SERVICE_NAMES) {
      const inboxes = natsGrants(service).subscribe.filter((s) => s.startsWith('_INBOX'));
      expect(inboxes, service).toEqual([`_INBOX.${service}.>`]);
    }
    // nobody asks the gateway anything
    expect(SERVICE_NAMES.filter((s) => natsGrants(s).publish.includes('_INBOX.gateway.>'))).not.toContain(
      'gateway',
    );
  });

  it('lets only the executor and the scheduler run functions', () => {
    const callers = SERVICE_NAMES.filter((s) =>
      natsGrants(s).publish.some((p) => subjectCovers(p, 'fn.exec.x')),
    );
    expect(callers).toEqual(['agent-executor', 'scheduler']);
  });

  it('keeps the function-runner away from runs, sessions and agent events', () => {
    const runner = natsGrants('function-runner');
    for (const subject of ['agent.run', 'agent.events.run_1', 'agent.sessions.get', 'agent.memory.search'])
      expect(
        [...runner.publish, ...runner.subscribe].some((g) => subjectCovers(g, subject)),
        subject,
      ).toBe(false);
  });
});

describe('subjectCovers', () => {
  it.each([
    ['fn.exec.*', 'fn.exec.add', true],
    ['fn.exec.*', 'fn.exec.agent_*', true],
    ['fn.exec.>', 'fn.exec.a.b', true],
    ['fn.>', 'fn', false],
    ['fn.exec.add', 'fn.exec.*', false],
    ['agent.events.*', 'agent.events.resumed', true],
    ['agent.events.*', 'agent.events.a.b', false],
  ])('%s covers %s: %s', (grant, use, covers) => {
    expect(subjectCovers(grant, use)).toBe(covers);
  });
});

/** The subjects a service's declaration names for each direction, before NATS's widening. */
function declaredSubjects(service: ServiceName): NatsGrants {
  const use = BusUses[service];
  const grants = natsGrants(service);
  const plumbing = (list: string[]) => list.filter((s) => s.startsWith('_INBOX.') || s.startsWith('$'));
  return {
    publish: [...use.asks, ...use.publishes].map((r) => r.subject).concat(plumbing(grants.publish)),
    subscribe: [...use.serves, ...use.hears].map((r) => r.subject).concat(plumbing(grants.subscribe)),
  };
}
