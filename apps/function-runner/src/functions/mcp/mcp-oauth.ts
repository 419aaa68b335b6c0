import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpOAuthConfig } from '@app/config';

/** A token is replaced this long before it expires (a short-lived one at 80% of its life). */
const REFRESH_MARGIN_MS = 60_000;

/**
 * OAuth for a mounted MCP server (machine to machine: the client-credentials grant, against the
 * authorization server the configuration names as `issuer`). The SDK's transport discovers the
 * server's metadata, gets a token on a 401, and sends it; this provider also replaces a token
 * before it expires (a long session never sends a stale token), and a 401 that still comes (a
 * token revoked early) makes the connection reconnect and get a new one.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  private readonly inner: ClientCredentialsProvider;
  private refreshAt?: number;
  private refreshing?: Promise<unknown>;

  constructor(
    config: McpOAuthConfig,
    private readonly serverUrl: URL,
  ) {
    this.inner = new ClientCredentialsProvider({
      clientId: config.client_id,
      clientSecret: config.client_secret,
      expectedIssuer: config.issuer,
      ...(config.scope ? { scope: config.scope } : {}),
    });
  }

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata() {
    return this.inner.clientMetadata;
  }

  clientInformation() {
    return this.inner.clientInformation();
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.inner.saveClientInformation(info as never);
  }

  /** The current token; one about to expire is replaced first (the grant needs no user). */
  async tokens(): Promise<OAuthTokens | undefined> {
    const current = this.inner.tokens();
    if (current && !this.refreshing && this.refreshAt !== undefined && Date.now() >= this.refreshAt) {
      this.refreshing = auth(this, { serverUrl: this.serverUrl }).finally(
        () => (this.refreshing = undefined),
      );
      await this.refreshing.catch(() => undefined);
      return this.inner.tokens();
    }
    return current;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.inner.saveTokens(tokens);
    const lifeMs = (tokens.expires_in ?? 0) * 1000;
    this.refreshAt = lifeMs > 0 ? Date.now() + lifeMs - Math.min(REFRESH_MARGIN_MS, lifeMs * 0.2) : undefined;
  }

  redirectToAuthorization(): void {
    this.inner.redirectToAuthorization();
  }

  saveCodeVerifier(): void {
    this.inner.saveCodeVerifier();
  }

  codeVerifier(): string {
    return this.inner.codeVerifier();
  }

  prepareTokenRequest(scope?: string): URLSearchParams {
    return this.inner.prepareTokenRequest(scope);
  }
}
