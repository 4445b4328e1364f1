/**
 * Variables of templates that are rendered by substitution, not by a template engine: clusterctl's
 * and envsubst's `${NAME}` (`${NAME:-default}`, `${NAME:=default}`), which Cluster API templates
 * hold in typed fields (`replicas: ${WORKER_MACHINE_COUNT}`). Such a value is checked as the text
 * it is, as the API server would read it unrendered, and its finding says what it is.
 */

import { parseJsonPointer } from './json-pointer.js';
import { isRecord } from '../engine/resource/plain-data.js';

const VARIABLE = /\$\{[A-Za-z_][A-Za-z0-9_]*(?:(?::?[-=?+])[^}]*)?\}/;

/** The variable a string value at `pointer` of `document` holds, if it holds one. */
export function templateVariableAt(document: unknown, pointer: string): string | undefined {
  let value = document;
  for (const segment of parseJsonPointer(pointer)) {
    if (Array.isArray(value)) value = value[Number(segment)];
    else if (isRecord(value) && Object.prototype.hasOwnProperty.call(value, segment)) {
      value = value[segment];
    } else return undefined;
  }
  if (typeof value !== 'string') return undefined;
  // A variable ends at a `}`: the text after the last one holds none. Cut, the text holds no
  // `${NAME:-...` without a `}` after it, which the pattern would read to the end from each one
  // (quadratic); a `${NAME:-...` with a `}` after it matches there.
  return VARIABLE.exec(value.slice(0, value.lastIndexOf('}') + 1))?.[0];
}

/** What a finding at a value holding a template variable adds to its message. */
export function templateVariableNote(variable: string): string {
  return ` (${variable} is a template variable: check what the template renders, e.g. clusterctl generate yaml or envsubst)`;
}
