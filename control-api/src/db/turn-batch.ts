/**
 * Gathers the calls made in one turn of the event loop and runs them together: on PostgreSQL a
 * round trip costs more than the statement, so concurrent requests asking the same kind of question
 * share one. By default a call made while a batch runs waits for the next turn's batch, not for this
 * one; with `maxRunning`, calls made while that many batches run wait for one of them to end and
 * then go together, so the busier the process, the more each statement carries.
 */
export function createTurnBatcher<TIn, TOut>(run: (inputs: readonly TIn[]) => Promise<readonly TOut[]>, options: { maxRunning?: number } = {}): (input: TIn) => Promise<TOut> {
  const maxRunning = options.maxRunning ?? Number.POSITIVE_INFINITY;
  let pending: { input: TIn; resolve(output: TOut): void; reject(error: unknown): void }[] = [];
  let running = 0;
  let scheduled = false;
  const schedule = (): void => {
    if (scheduled || running >= maxRunning || pending.length === 0) return;
    scheduled = true;
    setImmediate(() => void flush());
  };
  const flush = async (): Promise<void> => {
    scheduled = false;
    const batch = pending;
    pending = [];
    running++;
    try {
      const outputs = await run(batch.map((call) => call.input));
      if (outputs.length !== batch.length) throw new Error(`a batch of ${batch.length} calls answered ${outputs.length}`);
      for (const [i, call] of batch.entries()) call.resolve(outputs[i]!);
    } catch (error) {
      for (const call of batch) call.reject(error);
    } finally {
      running--;
      schedule();
    }
  };
  return (input) =>
    new Promise<TOut>((resolve, reject) => {
      pending.push({ input, resolve, reject });
      schedule();
    });
}
