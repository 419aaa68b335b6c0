import type { DayLimits, Slot } from './run-slots';

/**
 * A run's admission made with its request's rate-limit hit, before the turn asks for a slot: the
 * turn takes it, once. A refusal (quota, budget, too many runs) is thrown only then, so every
 * other refusal comes first as before; a slot no turn took is freed when the response ends.
 */
export class AdmittedAhead {
  private used = false;

  constructor(
    readonly day: DayLimits,
    readonly admitted: Slot | number,
    private readonly free: (slot: Slot) => void,
  ) {}

  take(): { day: DayLimits; admitted: Slot | number } | undefined {
    if (this.used) return undefined;
    this.used = true;
    return { day: this.day, admitted: this.admitted };
  }

  /** Frees the slot if no turn took it (the request was refused, or answered without a run). */
  dropUnused(): void {
    const untaken = this.take();
    if (untaken && typeof untaken.admitted !== 'number') this.free(untaken.admitted);
  }
}
