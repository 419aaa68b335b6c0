/**
 * The vectors of recent search queries, least recently used dropped first: a model asking the same
 * thing again (or a user paging through results) costs no embedding call. A query still being
 * embedded is shared, so simultaneous repeats make one call; a failed one is not kept.
 */
export class QueryVectorCache {
  private readonly entries = new Map<string, Promise<number[]>>();

  constructor(private readonly capacity: number) {}

  get(query: string, embed: (query: string) => Promise<number[]>): Promise<number[]> {
    const cached = this.entries.get(query);
    if (cached) {
      this.entries.delete(query);
      this.entries.set(query, cached);
      return cached;
    }
    const vector = embed(query);
    this.entries.set(query, vector);
    vector.catch(() => {
      if (this.entries.get(query) === vector) this.entries.delete(query);
    });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return vector;
  }

  get size(): number {
    return this.entries.size;
  }
}
