/**
 * A field path as kubectl's `--sort-by` and `-o custom-columns` take one
 * (`RelaxedJSONPathExpression`): `.spec.cpus`, `spec.cpus`, `{.spec.cpus}` or `{spec.cpus}` are
 * all the template `{.spec.cpus}`.
 */
import { CliError } from '../exit-codes.js';

const RELAXED = /^\{\.?([^{}]+)\}$|^\.?([^{}]+)$/;

/**
 * The template of a relaxed path; `flag` names the option in the error.
 *
 * @throws CliError (usage) for what is none of the four forms (`{a}{b}`, `{`).
 */
export function relaxedJsonPath(given: string, flag: string): string {
  const match = RELAXED.exec(given);
  const field = match?.[1] ?? match?.[2];
  if (field === undefined) {
    throw new CliError(
      `${flag}: unexpected path ${JSON.stringify(given)}: expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'`,
    );
  }
  return `{.${field}}`;
}
