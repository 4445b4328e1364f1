/**
 * Kinds defined by JSON Schemas on disk or at URLs (`--schema-location`, see
 * `schema-location.ts`), found as kubeconform finds them: when a document's kind is defined by
 * nothing else (no CRD, no config definition, no built-in kind), each location in turn is
 * asked for the path of its schema, and the first file there defines it. Only the kinds
 * documents use are read, so a checkout of a whole catalog (datreeio/CRDs-catalog: 4,000 files)
 * costs nothing to name.
 *
 * A schema defines the kind as a CRD of one served version would, its JSON Schema read back as
 * the CRD schema it was made from (`json-schema-structural.ts`):
 *
 * - **Type:** `<Plural>.<group>` for the first version of a group and kind found, with the kind
 *   and its singular as aliases; another version is `<Plural>.<version>.<group>`, as a CRD's
 *   other served versions are. The plural is guessed from the kind (a schema does not say it).
 * - **Scope:** namespaced (a schema does not say it either, and kubeconform does not check it).
 * - **Checks:** the schema's own (parse, JSON Schema, CEL rules) run the first time a
 *   document uses the kind, at the schema's file:line:col; one that fails leaves the kind
 *   undefined, and its documents point at the schema.
 *
 * Files are read through the given synchronous reader, so that this stays free of I/O: the CLI
 * reads the disk and what it downloaded (a URL not downloaded yet is `pending`), tests give a map.
 */

import pluralize from 'pluralize';
import {
  createDefinition,
  DefinitionError,
  type JsonSchema,
  type ResourceDefinition,
} from '../../engine/resource/definition.js';
import { checkDefinitionSchema } from '../definition-schema.js';
import { DocumentReport } from '../document-report.js';
import { createFinding, type Finding } from '../finding.js';
import { isPlainObject } from '../manifest-document.js';
import { MAX_CRD_BYTES, parseManifest } from '../parse/parse-manifest.js';
import type { SchemaCheckContext, SchemaKindSource } from './kubernetes-kinds.js';
import { camelPlural } from './crd-definitions.js';
import { deferCheck } from './deferred-check.js';
import { structuralSchemaOf } from './json-schema-structural.js';
import type { SchemaLocation } from './schema-location.js';

export type { SchemaCheckContext } from './kubernetes-kinds.js';

/**
 * What reading a schema's path gave. `pending`: not here yet (a URL not downloaded): the kind is
 * undefined for now, no later location is asked, and the kind is asked again by the next load,
 * which its reader makes once the download is done.
 */
export type SchemaFileRead =
  | { readonly text: string }
  | { readonly missing: true }
  | { readonly error: string }
  | { readonly pending: true };

/** Reads a schema's path: `missing` when there is no file (the next location is asked). */
export type ReadSchemaFile = (path: string) => SchemaFileRead;

/** How {@link JsonSchemaKinds} finds and reads schemas. */
export interface JsonSchemaKindsOptions {
  readonly locations: readonly SchemaLocation[];
  readonly read: ReadSchemaFile;
  /** The run's Kubernetes release, for `{{ .NormalizedKubernetesVersion }}`. */
  readonly release: string;
  /** `--strict`, for `{{ .StrictSuffix }}`. */
  readonly strict?: boolean;
}

/** A kind asked for: its definition, or the paths looked at in vain. */
type Lookup =
  | { readonly definition: ResourceDefinition }
  | { readonly definition?: undefined; readonly tried: readonly string[] };

/** The kinds of a set of schema locations (one catalog per run), each read once. */
export class JsonSchemaKinds implements SchemaKindSource {
  readonly #lookups = new Map<string, Lookup>();
  /** `group/kind` whose first version found took the short type. */
  readonly #named = new Set<string>();

  constructor(readonly options: JsonSchemaKindsOptions) {}

  /** Whether any location is given. */
  get isEmpty(): boolean {
    return this.options.locations.length === 0;
  }

  /**
   * The definition of a group, version and kind from the first location that has a file for it,
   * or `undefined`. Its schema's checks are put off (`deferred-check.ts`) until the load that
   * first uses it runs them, with `context`.
   */
  find(
    group: string,
    version: string,
    kind: string,
    context: SchemaCheckContext,
  ): ResourceDefinition | undefined {
    return this.#lookup(group, version, kind, context).definition;
  }

  /** The paths looked at for a kind no location has (empty when found or not yet asked). */
  tried(group: string, version: string, kind: string): readonly string[] {
    const lookup = this.#lookups.get(`${group}/${version}/${kind}`);
    return lookup === undefined || lookup.definition !== undefined ? [] : lookup.tried;
  }

  #lookup(group: string, version: string, kind: string, context: SchemaCheckContext): Lookup {
    const key = `${group}/${version}/${kind}`;
    const known = this.#lookups.get(key);
    if (known !== undefined) return known;
    const apiVersion = group === '' ? version : `${group}/${version}`;
    const tried: string[] = [];
    let lookup: Lookup | undefined;
    let pending = false;
    for (const location of this.options.locations) {
      const path = location.pathOf({
        apiVersion,
        kind,
        release: this.options.release,
        strict: this.options.strict === true,
      });
      if (tried.includes(path)) continue;
      tried.push(path);
      const read = this.options.read(path);
      if ('missing' in read) continue;
      if ('pending' in read) {
        pending = true;
        break;
      }
      const definition = this.#define(group, version, kind, path, read, context);
      lookup = definition === undefined ? { tried } : { definition };
      break;
    }
    lookup ??= { tried };
    // Asked again once the download is there, in the order of the locations.
    if (!pending) this.#lookups.set(key, lookup);
    return lookup;
  }

  #define(
    group: string,
    version: string,
    kind: string,
    path: string,
    read: { text: string } | { error: string },
    context: SchemaCheckContext,
  ): ResourceDefinition | undefined {
    const groupKind = `${group}/${kind}`;
    const short = !this.#named.has(groupKind);
    const suffix = group === '' ? 'core' : group;
    const plural = camelPlural(pluralize.plural(kind).toLowerCase(), kind);
    const type = short ? `${plural}.${suffix}` : `${plural}.${version}.${suffix}`;
    const { schema, findings } = readSchema(type, path, read, context);
    let definition: ResourceDefinition;
    try {
      definition = createDefinition({
        type,
        displayType: kind,
        ...(short
          ? { aliases: [pluralize.singular(kind).toLowerCase(), kind] }
          : { skipAutomaticAliases: true }),
        ...(schema === undefined ? {} : { schema }),
        kubernetes: {
          apiVersion: group === '' ? version : `${group}/${version}`,
          kind,
          namespaced: true,
        },
      });
    } catch (error) {
      // A kind or group COSI's names cannot hold: left to the unknown kind's finding.
      if (error instanceof DefinitionError) return undefined;
      throw error;
    }
    if (short) this.#named.add(groupKind);
    deferCheck(definition, findings);
    return definition;
  }
}

/**
 * A schema file's CRD schema, and the check to run when it is first used: its parse findings,
 * then the schema's own checks at their file:line:col. A file that is not one schema object has
 * no schema, and its check fails.
 */
function readSchema(
  type: string,
  path: string,
  read: { text: string } | { error: string },
  context: SchemaCheckContext,
): { schema?: JsonSchema; findings: () => Finding[] } {
  const fail = (message: string): { findings: () => Finding[] } => ({
    findings: () => [
      createFinding({
        code: 'invalid-definition',
        file: path,
        line: 0,
        col: 0,
        pointer: '',
        message,
      }),
    ],
  });
  if ('error' in read) return fail(`the schema of ${type} cannot be read: ${read.error}`);
  if (read.text.length > MAX_CRD_BYTES) {
    return fail(`the schema of ${type} is over ${MAX_CRD_BYTES / 1024 / 1024} MB: not read`);
  }
  const manifest = parseManifest(read.text, path);
  const document = manifest.documents[0];
  if (document === undefined || manifest.documents.length > 1 || !isPlainObject(document.value)) {
    const parse = manifest.findings.filter((f) => f.severity === 'error');
    if (parse.length > 0) return { findings: () => [...parse] };
    return fail(`the schema of ${type} must be one JSON Schema object`);
  }
  const schema = structuralSchemaOf(document.value);
  return {
    schema,
    findings: () => {
      // A bound past 2^53 (`maximum: 9223372036854775807`, int64's) loses a few units of a
      // limit, not data: a schema's numbers are not a manifest's.
      const findings = manifest.findings.filter((f) => f.code !== 'number-out-of-range');
      // Not the API server's structural rules: they say which CRDs it takes, and a schema here
      // is a third party's, as kubeconform takes any JSON Schema.
      checkDefinitionSchema(
        schema,
        type,
        '',
        new DocumentReport(document, findings),
        context.compiler,
        context.celRules,
      );
      return findings;
    },
  };
}
