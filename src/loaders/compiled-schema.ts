/**
 * What compiling a schema gives, and what a check needs of a compiler: the types the schema
 * checks share, below `schema-compiler.ts` (ajv and cosi's keywords), so that a check that is
 * handed a compiler does not import how one compiles.
 */

import type { JsonSchema } from '../engine/resource/definition.js';
import type { SchemaProblem } from './schema-problem.js';

/**
 * Checks a value against a compiled schema; no problems means valid. `wording` picks the words
 * of the API server's messages ({@link SchemaProblem.apiServerMessage}) by release.
 */
export type SpecValidator = (
  value: unknown,
  wording?: ApiServerWording,
) => readonly SchemaProblem[];

/**
 * Which API server a check answers as: the words of a problem's `apiServerMessage`, and the
 * checks a release added (a custom resource's `k8s-short-name` format from 1.35).
 */
export interface ApiServerWording {
  /** The Kubernetes release's minor (`31` for 1.31); default the newest. */
  readonly kubernetesMinor?: number;
}

/** A compiled schema, or why it could not be compiled (paths inside the schema). */
export interface CompiledSchema {
  readonly validate?: SpecValidator;
  readonly problems: readonly SchemaProblem[];
}

/** Compiles schemas: what a check needs of a `SchemaCompiler` (`schema-compiler.ts`). */
export interface CompilesSchemas {
  compile(schema: JsonSchema): CompiledSchema;
}
