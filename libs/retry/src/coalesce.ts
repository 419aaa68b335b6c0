/**
 * A task that runs one at a time: asked while it runs, it runs once more after it, however many times
 * it was asked meanwhile (a folder rescanned, a stream read again: the later run sees everything the
 * asks were about). The promise given to an ask settles when a run that began after that ask ends,
 * rejecting with that run's failure; a failed run does not stop the next.
 */
export function coalesced(task: () => Promise<void>): () => Promise<void> {
  let last: Promise<void> = Promise.resolve();
  let queued = false;
  return () => {
    if (queued) return last;
    queued = true;
    last = last
      .catch(() => undefined)
      .then(() => {
        queued = false;
        return task();
      });
    return last;
  };
}
