/**
 * Streams the prose of an xml-toon reply and nothing from its first `<call` on: text that could
 * still turn into the marker is held back until the next delta decides.
 */
export class CallFreeDeltas {
  private pending = '';
  private stopped = false;

  constructor(
    private readonly emit: (text: string) => void,
    private readonly marker = '<call',
  ) {}

  push(text: string): void {
    if (this.stopped) return;
    this.pending += text;
    const at = this.pending.indexOf(this.marker);
    if (at >= 0) {
      this.stopped = true;
      this.send(this.pending.slice(0, at));
      return;
    }
    const keep = this.heldBack();
    this.send(this.pending.slice(0, this.pending.length - keep));
    this.pending = this.pending.slice(this.pending.length - keep);
  }

  /** The reply is complete: what was held back was not a call after all. */
  flush(): void {
    if (!this.stopped) this.send(this.pending);
    this.pending = '';
  }

  private heldBack(): number {
    for (let k = Math.min(this.marker.length - 1, this.pending.length); k > 0; k--) {
      if (this.marker.startsWith(this.pending.slice(-k))) return k;
    }
    return 0;
  }

  private send(text: string): void {
    if (text) this.emit(text);
  }
}
