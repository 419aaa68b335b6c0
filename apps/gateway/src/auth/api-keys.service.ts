import { hash as digest, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { PlatformConfig } from '@app/config';
import {
  type ApiKeyView,
  type CreatedApiKey,
  type CreateApiKeyRequest,
  ConflictError,
  NotFoundError,
  SCOPES,
  type Scope,
} from '@app/contracts';
import { Logger } from '@app/observability';
import { PLATFORM_CONFIG } from '@app/runtime';
import { ApiKeyRepository, type ApiKeyRecord } from './api-key.repository';

export interface Principal {
  keyId: string;
  principal: string;
  scopes: Scope[];
  /** The key's own daily budget in USD, when it has one. */
  dailyCostBudgetUsd?: number;
}

const LAST_USED_RESOLUTION_MS = 60_000;
/**
 * How long a successful key check is trusted without asking the database again. A key revoked
 * through this gateway stops at once; through another replica, within this time.
 */
export const KEY_CHECK_TTL_MS = 5_000;
const KEY_CHECK_CACHE_MAX = 10_000;
/** The name of the admin key an empty database gets at first start (printed once). */
export const PRINTED_ADMIN_KEY_NAME = 'admin (generated at first start)';

/**
 * API keys: random 190-bit tokens, stored as SHA-256 hashes (a slow password hash buys nothing for
 * high-entropy secrets and would cost every request), shown once, revocable, scoped.
 */
@Injectable()
export class ApiKeysService implements OnApplicationBootstrap {
  private readonly lastTouched = new Map<string, number>();
  /** Key hash → principal, for keys found valid (unknown keys are never cached). */
  private readonly checked = new Map<string, { principal: Principal; until: number }>();

  constructor(
    private readonly keys: ApiKeyRepository,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.security.auth)
      return this.logger.warn('authentication is OFF (AUTH_ENABLED=false): every route is open');
    const adminKey = this.config.security.admin_key;
    if (adminKey) return this.ensureAdminKey(adminKey);
    if ((await this.keys.count()) === 0) await this.printFirstAdminKey();
  }

  async create(request: CreateApiKeyRequest): Promise<CreatedApiKey> {
    const key = `ac_${randomBytes(24).toString('base64url')}`;
    const record = await this.keys.create({
      id: randomUUID(),
      name: request.name,
      principal: request.principal ?? `key:${randomUUID().slice(0, 8)}`,
      prefix: key.slice(0, 10),
      hash: hashKey(key),
      scopes: [...new Set(request.scopes)].join(' '),
      daily_cost_budget_usd: request.daily_cost_budget_usd ?? null,
    });
    return { ...toView(record), key };
  }

  async list(): Promise<ApiKeyView[]> {
    return (await this.keys.list()).map(toView);
  }

  async revoke(id: string): Promise<void> {
    const revoked = await this.keys.revoke(id);
    for (const [hash, { principal }] of this.checked) if (principal.keyId === id) this.checked.delete(hash);
    if (!revoked && !(await this.keys.exists(id))) throw new NotFoundError('API key', id);
  }

  /**
   * Revokes the admin key printed at first start, which setting AC_ADMIN_KEY later does not
   * replace. Refused while it is the only admin key: nobody could manage keys over the API after.
   */
  async revokePrinted(): Promise<ApiKeyView[]> {
    const printed = await this.keys.active(PRINTED_ADMIN_KEY_NAME);
    if (printed.length === 0) return [];
    const admins = await this.keys.countActiveWithScope('admin');
    if (admins <= printed.length) {
      throw new ConflictError(
        'the printed admin key is the only admin key: set AC_ADMIN_KEY and start the gateway once (or create another admin key) first',
      );
    }
    for (const key of printed) await this.revoke(key.id);
    return printed.map((key) => toView({ ...key, revoked_at: new Date() }));
  }

  /** The principal behind a presented key, or null for an unknown or revoked key. */
  async authenticate(key: string, now = Date.now()): Promise<Principal | null> {
    const hash = hashKey(key);
    const cached = this.checked.get(hash);
    if (cached && cached.until > now) {
      this.touch(cached.principal.keyId, now);
      return cached.principal;
    }
    const record = await this.keys.findByHash(hash);
    if (!record || record.revoked_at) {
      this.checked.delete(hash);
      return null;
    }
    const principal = {
      keyId: record.id,
      principal: record.principal,
      scopes: record.scopes.split(' ') as Scope[],
      ...(record.daily_cost_budget_usd === null ? {} : { dailyCostBudgetUsd: record.daily_cost_budget_usd }),
    };
    if (this.checked.size >= KEY_CHECK_CACHE_MAX) this.checked.clear();
    this.checked.set(hash, { principal, until: now + KEY_CHECK_TTL_MS });
    this.touch(record.id, now);
    return principal;
  }

  private touch(id: string, now: number): void {
    if (now - (this.lastTouched.get(id) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastTouched.set(id, now);
    void this.keys.touch(id).catch(() => undefined);
  }

  private async ensureAdminKey(key: string): Promise<void> {
    if (await this.keys.findByHash(hashKey(key))) return;
    await this.keys
      .create({
        id: randomUUID(),
        name: 'admin (AC_ADMIN_KEY)',
        principal: 'admin',
        prefix: key.slice(0, 10),
        hash: hashKey(key),
        scopes: SCOPES.join(' '),
      })
      .catch(() => undefined); // another gateway replica stored it first
  }

  private async printFirstAdminKey(): Promise<void> {
    const created = await this.create({
      name: PRINTED_ADMIN_KEY_NAME,
      scopes: [...SCOPES],
      principal: 'admin',
    });
    // Printed once, on purpose outside the logger: this is the only time the key can be seen.
    process.stdout.write(
      `\n  No API key exists yet: created an admin key. It is shown only this once:\n\n    ${created.key}\n\n` +
        `  Use it as 'Authorization: Bearer <key>'. Set AC_ADMIN_KEY to choose your own.\n\n`,
    );
  }
}

/** One-shot: no Hash object per request. */
export function hashKey(key: string): string {
  return digest('sha256', key, 'hex');
}

function toView(record: ApiKeyRecord): ApiKeyView {
  return {
    id: record.id,
    name: record.name,
    principal: record.principal,
    prefix: record.prefix,
    scopes: record.scopes.split(' ') as Scope[],
    created_at: record.created_at.toISOString(),
    revoked_at: record.revoked_at?.toISOString() ?? null,
    last_used_at: record.last_used_at?.toISOString() ?? null,
    daily_cost_budget_usd: record.daily_cost_budget_usd,
  };
}
