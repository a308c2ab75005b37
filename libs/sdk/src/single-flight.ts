/**
 * At most one run of an async operation at a time: callers that arrive while it runs share its
 * promise. The promise is forgotten once settled, so a failure is not cached and the next call
 * starts afresh.
 */
export class SingleFlight<T> {
  private current: Promise<T> | undefined;

  /** True while a run is in progress. */
  get busy(): boolean {
    return this.current !== undefined;
  }

  run(operation: () => Promise<T>): Promise<T> {
    if (this.current) return this.current;
    const running: Promise<T> = Promise.resolve()
      .then(operation)
      .finally(() => {
        if (this.current === running) this.current = undefined;
      });
    this.current = running;
    return running;
  }
}
