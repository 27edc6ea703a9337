/**
 * Gathers the calls made in one turn of the event loop and runs them together: on PostgreSQL a
 * round trip costs more than the statement, so concurrent requests asking the same kind of question
 * share one. A call made while a batch runs waits for the next turn's batch, not for this one.
 */
export function createTurnBatcher<TIn, TOut>(run: (inputs: readonly TIn[]) => Promise<readonly TOut[]>): (input: TIn) => Promise<TOut> {
  let pending: { input: TIn; resolve(output: TOut): void; reject(error: unknown): void }[] = [];
  const flush = async (): Promise<void> => {
    const batch = pending;
    pending = [];
    try {
      const outputs = await run(batch.map((call) => call.input));
      if (outputs.length !== batch.length) throw new Error(`a batch of ${batch.length} calls answered ${outputs.length}`);
      for (const [i, call] of batch.entries()) call.resolve(outputs[i]!);
    } catch (error) {
      for (const call of batch) call.reject(error);
    }
  };
  return (input) =>
    new Promise<TOut>((resolve, reject) => {
      pending.push({ input, resolve, reject });
      if (pending.length === 1) setImmediate(() => void flush());
    });
}
