/**
 * What was thrown, as an `Error`: JavaScript can throw anything, and the runtime records and
 * reports errors by their message.
 */
export function toError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}
