/**
 * A promise fulfilled with nothing, made once: what a call that answers nothing hands every
 * caller instead of a promise of its own (a write in a hot loop then allocates none).
 */
export const SETTLED: Promise<undefined> = Promise.resolve(undefined);

/**
 * A promise rejected with what was thrown, whatever it is: how a function that is not async
 * (to answer {@link SETTLED} when it can) still rejects, as an async function would, and never
 * throws to its caller.
 */
export const rejectWith = async (error: unknown): Promise<never> => {
  throw error;
};
