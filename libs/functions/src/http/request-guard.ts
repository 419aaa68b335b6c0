import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { FunctionFailedError } from '@app/contracts';
import { type AddressVerdict, judgeAddress } from './address-policy';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface GuardOptions {
  /** `example.com` (that host), `*.example.com` (its subdomains) or `*` (any public host). */
  allowedDomains: string[];
  allowedMethods: string[];
  resolve?: HostResolver;
  judge?: (address: string) => AddressVerdict;
  /** Who is refused, in the refusal's message (`http_request` unless told). */
  label?: string;
}

export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/**
 * Decides, before any connection, whether a request may go to a URL (http_request, MCP servers,
 * webhook hooks): scheme, method and domain
 * allow-lists, then every address the host resolves to must be public. The caller connects to
 * the returned address only (no second lookup), so DNS rebinding cannot swap it afterwards.
 * Run again for every redirect.
 */
export class RequestGuard {
  private readonly domains: string[];
  private readonly methods: Set<string>;
  private readonly resolve: HostResolver;
  private readonly judge: (address: string) => AddressVerdict;
  private readonly label: string;

  constructor(o: GuardOptions) {
    this.label = o.label ?? 'http_request';
    this.domains = o.allowedDomains.map((d) => d.trim().toLowerCase().replace(/\.$/, '')).filter(Boolean);
    this.methods = new Set(o.allowedMethods.map((m) => m.trim().toUpperCase()));
    this.resolve = o.resolve ?? systemResolver;
    this.judge = o.judge ?? judgeAddress;
  }

  checkMethod(method: string): void {
    if (!this.methods.has(method)) {
      this.blocked(
        `method ${method} is not allowed (functions.http.allowed_methods: ${[...this.methods].join(', ') || 'none'})`,
      );
    }
  }

  async check(url: URL): Promise<ResolvedAddress> {
    const host = this.checkStatic(url);
    const family = isIP(host);
    const addresses = family ? [{ address: host, family: family as 4 | 6 }] : await this.lookup(host);
    for (const { address } of addresses) this.judgeOrBlock(host, address);
    return addresses[0];
  }

  /**
   * What can be decided without DNS: scheme, credentials, the domain allow-list, and an IP
   * literal's address. Returns the host; `check` still has to judge what a name resolves to.
   */
  checkStatic(url: URL): string {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      this.blocked(`only http and https URLs are allowed, not ${url.protocol}`);
    if (url.username || url.password)
      this.blocked('credentials in the URL are not allowed; send an Authorization header');
    const host = url.hostname
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '')
      .toLowerCase();
    if (!this.domainAllowed(host))
      this.blocked(`the host '${host}' is not in functions.http.allowed_domains`);
    if (isIP(host)) this.judgeOrBlock(host, host);
    return host;
  }

  private domainAllowed(host: string): boolean {
    return this.domains.some(
      (d) => d === '*' || d === host || (d.startsWith('*.') && host.endsWith(d.slice(1))),
    );
  }

  private async lookup(host: string): Promise<ResolvedAddress[]> {
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.resolve(host);
    } catch (err) {
      throw new FunctionFailedError(
        `the host '${host}' could not be resolved (${(err as { code?: string }).code ?? 'lookup failed'})`,
      );
    }
    if (addresses.length === 0) throw new FunctionFailedError(`the host '${host}' has no address`);
    return addresses;
  }

  private judgeOrBlock(host: string, address: string): void {
    const verdict = this.judge(address);
    if (verdict.allowed) return;
    const what =
      host === address
        ? `${address} is ${verdict.reason}`
        : `'${host}' resolves to ${address}, ${verdict.reason}`;
    this.blocked(`${what}; only public addresses can be reached`);
  }

  private blocked(why: string): never {
    throw new FunctionFailedError(`${this.label} blocked: ${why}`, { reason: 'blocked' });
  }
}
