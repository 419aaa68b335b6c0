import type { SessionStore, StoredTurnMessage } from '../ports';

/** Sessions kept in this process's memory: the default store of an embedded runtime. */
export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, { summary: string | null; messages: StoredTurnMessage[] }>();

  async load(sessionId: string): Promise<{ summary: string | null; messages: StoredTurnMessage[] }> {
    const session = this.sessions.get(sessionId);
    return { summary: session?.summary ?? null, messages: [...(session?.messages ?? [])] };
  }

  async append(sessionId: string, messages: StoredTurnMessage[]): Promise<void> {
    this.entry(sessionId).messages.push(...messages);
  }

  async saveSummary(sessionId: string, summary: string, folded: StoredTurnMessage[]): Promise<void> {
    const session = this.entry(sessionId);
    session.summary = summary;
    session.messages = session.messages.filter((message) => !folded.includes(message));
  }

  private entry(sessionId: string) {
    let session = this.sessions.get(sessionId);
    if (!session) this.sessions.set(sessionId, (session = { summary: null, messages: [] }));
    return session;
  }
}
