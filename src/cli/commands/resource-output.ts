/**
 * The `-o` formats of the commands that print resources (`get`, `apply`): the named ones, and
 * kubectl's `jsonpath=`, `jsonpath-as-json=` and `custom-columns=` with their templates.
 */
import { CliError } from '../exit-codes.js';
import { parseFormat } from '../options.js';
import {
  customColumnsFormat,
  jsonPathAsJsonFormat,
  jsonPathFormat,
  type ResourceFormat,
} from '../render/resources.js';

/**
 * The `-o` value as a format of `formats`, its template parsed (a malformed one is a usage
 * error, before any run).
 *
 * @throws CliError (usage) for an unknown format, a Go template or a malformed template.
 */
export function parseResourceFormat(output: string, formats: readonly string[]): ResourceFormat {
  if (/^(go-template|template)(-file)?(=|$)/.test(output)) {
    throw new CliError(
      `-o ${output.split('=')[0]}: Go templates are out of scope for cosi (they run Go's text/template, which cosi does not have): use -o jsonpath=TEMPLATE, -o jsonpath-as-json=TEMPLATE or -o custom-columns=NAME:PATH,...`,
    );
  }
  if (output.startsWith('jsonpath=')) return jsonPathFormat(output.slice('jsonpath='.length));
  if (output.startsWith('jsonpath-as-json=')) {
    return jsonPathAsJsonFormat(output.slice('jsonpath-as-json='.length));
  }
  if (output.startsWith('custom-columns=')) {
    return customColumnsFormat(output.slice('custom-columns='.length));
  }
  return parseFormat(output, formats) as ResourceFormat;
}

/**
 * What `get` says when nothing matched, as kubectl: in the namespace asked for (`-n`), named;
 * across every namespace (cosi's default, or -A), not.
 */
export function noResourcesFound(namespace: string | undefined): string {
  return namespace === undefined
    ? 'No resources found\n'
    : `No resources found in ${namespace} namespace.\n`;
}
