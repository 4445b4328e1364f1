import {
  Ajv,
  type AnySchema,
  type ErrorObject,
  type KeywordDefinition,
  type ValidateFunction,
} from 'ajv';
import { AJV_OPTIONS } from './ajv-options.js';
import { validate as validateDraft07 } from './generated/draft-07-meta-validator.js';
import type { JsonSchema } from '../engine/resource/definition.js';
import { jsonPointer, parseJsonPointer } from './json-pointer.js';
import {
  addKubernetesKeywords,
  COMBINATOR_FORMAT,
  KUBERNETES_KEYWORD_MESSAGES,
  toAjvSchema,
} from './kubernetes/structural-schema.js';
import { checkSchema, findKeyword } from './schema-checks.js';
import { bestBranchErrors } from './best-branch-errors.js';
import { createSuggestionBudget, type Suggest } from './did-you-mean.js';
import { MAX_FINDINGS_PER_DOCUMENT } from './document-finding-limit.js';
import {
  located,
  openApiErrorMessage,
  openApiErrorPath,
  openApiFormatMessage,
} from './kubernetes/openapi-error-message.js';
import { shorten } from './shorten.js';
import { UNIQUE_ITEMS_KEYWORD } from './unique-items.js';
import {
  formatProblems,
  hasCheckedFormats,
  isValidFormat,
  type FormatProblem,
} from './checked-formats.js';
import { goFieldPath } from './kubernetes/go-field-error.js';
import {
  hasSharedSubschemas,
  schemaAppliedAt,
  shareRepeatedSubschemas,
} from './shared-subschemas.js';
import type {
  ApiServerWording,
  CompiledSchema,
  CompilesSchemas,
  SpecValidator,
} from './compiled-schema.js';
import type { SchemaProblem } from './schema-problem.js';

export type { ApiServerWording, CompiledSchema, SpecValidator } from './compiled-schema.js';
export type { SchemaProblem } from './schema-problem.js';

/**
 * Schemas whose validator is made another way (the built-in Kubernetes kinds': compiled from
 * their release's definitions, each shared definition once), by schema object: every compiler
 * answers them from here.
 */
const precompiled = new WeakMap<object, () => CompiledSchema>();

/** Makes every compiler answer `schema` with what `compile` returns (called once, when needed). */
export function precompileSchema(schema: JsonSchema, compile: () => CompiledSchema): void {
  let compiled: CompiledSchema | undefined;
  precompiled.set(schema, () => (compiled ??= compile()));
}

/** The meta-schema a schema without `$schema` is checked against (ajv's default). */
const DRAFT_07 = /^http:\/\/json-schema\.org\/draft-07\/schema#?$/;

/**
 * ajv, checking draft-07 schemas with the validator of the meta-schema compiled ahead of time
 * (see `scripts/generate-meta-validator.mjs`) instead of compiling it in every process: the same
 * answer and the same errors. Other meta-schemas are ajv's own business.
 */
class PrecompiledMetaAjv extends Ajv {
  /** Whether ajv's own draft-07 meta-schema is in, added when first needed (see below). */
  #metaSchemaAdded = false;

  /**
   * Not as the ajv starts: adding the meta-schema (resolving every `$id` and `$ref` of it) was
   * a few ms of every start of a run, for schemas that never name it. It is added by
   * {@link withMetaSchema}: for a `$schema` ajv checks itself, or a `$ref` to it.
   */
  override _addDefaultMetaSchema(): void {}

  /** Adds ajv's draft-07 meta-schema, once. */
  withMetaSchema(): this {
    if (!this.#metaSchemaAdded) {
      this.#metaSchemaAdded = true;
      super._addDefaultMetaSchema();
    }
    return this;
  }

  override validateSchema(schema: AnySchema, throwOrLogError?: boolean): boolean {
    if (
      typeof schema !== 'object' ||
      (schema.$schema !== undefined &&
        (typeof schema.$schema !== 'string' || !DRAFT_07.test(schema.$schema)))
    ) {
      this.withMetaSchema();
      return super.validateSchema(schema, throwOrLogError) as boolean;
    }
    const valid = validateDraft07(schema);
    this.errors = valid ? null : (validateDraft07.errors ?? null);
    if (!valid && throwOrLogError === true) {
      throw new Error(`schema is invalid: ${this.errorsText()}`);
    }
    return valid;
  }
}

/** A fresh ajv with cosi's settings. */
function createAjv(): PrecompiledMetaAjv {
  const ajv = new PrecompiledMetaAjv(AJV_OPTIONS);
  addKubernetesKeywords(ajv);
  ajv.addKeyword(COMBINATOR_FORMAT_KEYWORD);
  // ajv's own compares every pair of object items: quadratic in a list of thousands.
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword(UNIQUE_ITEMS_KEYWORD);
  return ajv;
}

/**
 * A `format` under a combinator, checked where ajv meets it (`toAjvSchema` copies it to
 * {@link COMBINATOR_FORMAT}), so that a branch fails on it: a format the API server does not
 * check takes every string. A compiled schema serves every release, so a format only later
 * releases check (`k8s-short-name`) takes every string here.
 */
const COMBINATOR_FORMAT_KEYWORD: KeywordDefinition = {
  keyword: COMBINATOR_FORMAT,
  schemaType: 'string',
  errors: true,
  validate: function combinatorFormat(this: unknown, format: string, data: unknown) {
    if (typeof data !== 'string' || isValidFormat(data, format, 0)) return true;
    (combinatorFormat as { errors?: Partial<ErrorObject>[] }).errors = [
      {
        keyword: 'format',
        message: `must be of type ${format}: ${shorten(JSON.stringify(data))}`,
        params: { format },
      },
    ];
    return false;
  },
};

/**
 * Compiles JSON Schemas (draft-07) for spec validation, each schema object once.
 *
 * Settings: all errors are reported; unknown keywords are schema errors (a typo such as
 * `requried` must not silently accept everything), except `x-` extension keywords, which are
 * allowed as annotations; the `x-kubernetes-*` keywords of CRD schemas (and OpenAPI's
 * `nullable`) check what the API server checks (see `kubernetes/structural-schema.ts`); `format`
 * is checked only for the formats the API server parses (`duration`, `date`, `date-time`,
 * `byte`: `string-formats.ts`); `pattern`s run in a linear-time engine (see `linear-regexp.ts`). Each schema compiles on its own: one with an `$id` gets an ajv of
 * its own, so that its id can neither collide with nor replace another schema (or ajv's
 * meta-schema). A `$ref` cycle that never descends into the data is refused.
 */
export class SchemaCompiler implements CompilesSchemas {
  readonly #ajv = createAjv();
  readonly #compiled = new WeakMap<object, CompiledSchema>();
  /**
   * Compiled schemas by their JSON text: a repository's copies of one CRD (a release bundle
   * beside `config/crd`, an OLM bundle) compile once. Bounded, oldest out first: `cosi watch`
   * compiles each edit of a schema anew.
   */
  readonly #byText = new Map<string, CompiledSchema>();
  #byTextLength = 0;

  /** `kept`: how many schemas, and how much of their text, are kept by their text. */
  constructor(readonly kept = { schemas: MAX_BY_TEXT, characters: MAX_BY_TEXT_LENGTH }) {}

  /**
   * The compiled schema; the same object again for the same schema object, or for another
   * written the same.
   */
  compile(schema: JsonSchema): CompiledSchema {
    const made = precompiled.get(schema);
    if (made !== undefined) return made();
    let compiled = this.#compiled.get(schema);
    if (compiled === undefined) {
      const text = exactJson(schema);
      compiled = text === undefined ? undefined : this.#byText.get(text);
      if (compiled === undefined) {
        compiled = this.#compile(toAjvSchema(schema));
        if (text !== undefined) this.#remember(text, compiled);
      }
      this.#compiled.set(schema, compiled);
    }
    return compiled;
  }

  #remember(text: string, compiled: CompiledSchema): void {
    this.#byText.set(text, compiled);
    this.#byTextLength += text.length;
    for (const [oldest] of this.#byText) {
      const { schemas, characters } = this.kept;
      if (this.#byText.size <= schemas && this.#byTextLength <= characters) break;
      this.#byText.delete(oldest);
      this.#byTextLength -= oldest.length;
    }
  }

  #compile(schema: JsonSchema): CompiledSchema {
    const shared = !hasId(schema);
    const ajv = shared ? this.#ajv : createAjv();
    try {
      // A schema with ids of its own has an ajv of its own, with the meta-schema as ever (an id
      // of the meta-schema's is refused); a schema without, only when it refers to it.
      if (!shared || refersToMetaSchema(schema)) ajv.withMetaSchema();
      allowExtensionKeywords(ajv, schema);
      if (!ajv.validateSchema(schema)) {
        return { problems: schemaProblems(ajv.errors ?? []) };
      }
      const problems = checkSchema(schema);
      if (problems.length > 0) return { problems };
      // A repeated subschema compiled once (`shared-subschemas.ts`).
      const compiled = shareRepeatedSubschemas(schema) ?? schema;
      const validate = ajv.compile(compiled);
      // Validators work on their own; removing the schema keeps ajv from holding every schema
      // it ever saw. Only schemas without an `$id` are in the shared ajv: removing one cannot
      // remove another schema by its id.
      if (shared) ajv.removeSchema(compiled);
      const validator = specValidator(validate);
      return {
        problems: [],
        validate: hasCheckedFormats(schema) ? withFormatChecks(validator, schema) : validator,
      };
    } catch (error) {
      if (shared) ajv.removeSchema(schema);
      const message = error instanceof Error ? error.message : String(error);
      const keyword = /unknown keyword: "(.*)"/.exec(message)?.[1];
      if (keyword === undefined && message.includes('already exists') && '$id' in schema) {
        return { problems: [{ path: '/$id', part: 'value', keyword: '$id', message }] };
      }
      const path = keyword === undefined ? undefined : findKeyword(schema, keyword);
      return {
        problems: [
          path === undefined
            ? { path: '', part: 'value', keyword: 'compile', message }
            : {
                path,
                part: 'key',
                keyword: 'strict',
                message: `unknown keyword ${JSON.stringify(keyword)}`,
              },
        ],
      };
    }
  }
}

/** The most schemas {@link SchemaCompiler} keeps by their text, and the most text it keeps. */
const MAX_BY_TEXT = 4096;
const MAX_BY_TEXT_LENGTH = 32 * 1024 * 1024;

/**
 * A schema's JSON text when the text says all there is to it, else `undefined`: JSON has no
 * `NaN`, `Infinity`, `-0` or `undefined` (YAML's `.nan` would read as `null`), and no class
 * instances (a `Date` would read as its string).
 */
function exactJson(schema: JsonSchema): string | undefined {
  const found = { inexact: false };
  let text: string;
  try {
    text = JSON.stringify(schema, function (this: Record<string, unknown>, key, value: unknown) {
      const written = key === '' ? value : this[key];
      if (typeof written === 'number') {
        if (!Number.isFinite(written) || Object.is(written, -0)) found.inexact = true;
      } else if (written === undefined) {
        found.inexact = true;
      } else if (typeof written === 'object' && written !== null && !Array.isArray(written)) {
        const prototype: unknown = Object.getPrototypeOf(written);
        if (prototype !== Object.prototype && prototype !== null) found.inexact = true;
      } else if (typeof written === 'function' || typeof written === 'symbol') {
        found.inexact = true;
      }
      return value;
    });
  } catch {
    // A BigInt, or a cycle.
    return undefined;
  }
  return found.inexact ? undefined : text;
}

/** A validator that answers an ajv function's errors as cosi's problems. */
export function specValidator(validate: ValidateFunction): SpecValidator {
  return (value, wording) => {
    try {
      if (validate(value)) return [];
      const root = rootOf(validate);
      // A document shows its first findings only: the rest need no "did you mean".
      const suggest = createSuggestionBudget(MAX_FINDINGS_PER_DOCUMENT);
      return bestBranchErrors(validate.errors ?? [], root).map((error) =>
        toProblem(error, root, value, wording, suggest),
      );
    } catch (error) {
      // A recursion the static check did not see (through `$id`s): refuse the value.
      if (!(error instanceof RangeError)) throw error;
      return [
        { path: '', part: 'value', keyword: '$ref', message: 'the schema recurses without end' },
      ];
    }
  };
}

/**
 * `validate`, then the strings whose format the API server checks (`duration`, `date-time`,
 * `byte`, `cidr`, `uri`, ...): one not of its format is a problem, as kube-openapi's type error,
 * reported beside the schema's other problems, as kube-openapi reports it, and the CEL rules that
 * would read it do not run.
 */
function withFormatChecks(validate: SpecValidator, schema: JsonSchema): SpecValidator {
  return (value, wording) => [
    ...validate(value, wording),
    ...formatProblems(value, schema, wording?.kubernetesMinor).map((problem): SchemaProblem => {
      if (problem.rangeOf !== undefined) return rangeProblem(problem, problem.rangeOf, value);
      const apiServerMessage = openApiFormatMessage(
        located(jsonPointer(problem.path), value).path,
        problem.value,
        problem.format,
      );
      return {
        path: jsonPointer(problem.path),
        part: 'value',
        keyword: 'format',
        message: `must be of type ${problem.format}: ${JSON.stringify(problem.value)}`,
        ...(apiServerMessage === undefined ? {} : { apiServerMessage }),
      };
    }),
  ];
}

/**
 * A number past its format's range, as kube-openapi's range check words it (a plain error, which
 * the API server reports at no field: `<nil>: Invalid value: ""`), and, being `field.Invalid`,
 * beside the CEL rules rather than instead of them.
 */
function rangeProblem(
  problem: FormatProblem,
  type: 'integer' | 'number',
  value: unknown,
): SchemaProblem {
  const at = goFieldPath(located(jsonPointer(problem.path), value).path);
  const kind = `of type ${type} with format ${problem.format}`;
  return {
    path: jsonPointer(problem.path),
    part: 'value',
    keyword: 'format-range',
    message: `must be ${kind}: ${String(problem.value)} is out of its range`,
    apiServerMessage: `Invalid value: "": Checked value must be ${kind} in ${at}`,
  };
}

/** The schema a validator was compiled from, to name the fields an unknown one is not. */
function rootOf(validate: ValidateFunction): JsonSchema | undefined {
  const schema: unknown = validate.schema;
  return typeof schema === 'object' && schema !== null ? (schema as JsonSchema) : undefined;
}

/** Registers every `x-...` key found in the schema as a keyword that checks nothing. */
function allowExtensionKeywords(ajv: Ajv, value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) allowExtensionKeywords(ajv, item);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.startsWith('x-') && ajv.getKeyword(key) === false) ajv.addKeyword({ keyword: key });
    allowExtensionKeywords(ajv, item);
  }
}

/** Whether a schema has a `$ref` to a meta-schema (`http://json-schema.org/draft-07/schema#`). */
function refersToMetaSchema(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(refersToMetaSchema);
  return Object.entries(value).some(
    ([key, item]) =>
      (key === '$ref' && typeof item === 'string' && item.startsWith('http://json-schema.org/')) ||
      refersToMetaSchema(item),
  );
}

/** Whether a schema names itself or a subschema with an `$id` (or draft-04's `id`). */
function hasId(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasId);
  return Object.entries(value).some(
    ([key, item]) => ((key === '$id' || key === 'id') && typeof item === 'string') || hasId(item),
  );
}

/** A new compiler; share one across loads to compile each schema object only once. */
export function createSchemaCompiler(): SchemaCompiler {
  return new SchemaCompiler();
}

let shared: SchemaCompiler | undefined;

/**
 * The compiler loads use unless given one. Sharing it is safe: it holds compiled schemas only
 * weakly and frees each schema's `$id` once compiled; and it saves the setup cost (tens of ms)
 * of every load after the first (`cosi watch`, tests).
 */
export function sharedSchemaCompiler(): SchemaCompiler {
  return (shared ??= new SchemaCompiler());
}

/**
 * A problem of `value`; `root`, the schema checked, names the fields an unknown one is not.
 * Without `root`, the error's `schemaPath` is taken from the root of the schema (a meta-schema
 * error's).
 */
function toProblem(
  error: ErrorObject,
  root?: JsonSchema,
  value?: unknown,
  wording?: ApiServerWording,
  suggest?: Suggest,
): SchemaProblem {
  return withApiServerMessage(toLocatedProblem(error, root, value, suggest), error, value, wording);
}

function toLocatedProblem(
  error: ErrorObject,
  root?: JsonSchema,
  value?: unknown,
  suggest?: Suggest,
): SchemaProblem {
  const combined = COMBINATOR_PATH.test(error.schemaPath);
  if (!combined && error.keyword !== 'additionalProperties') return toOwnProblem(error);
  const base = errorBase(error, root, value);
  const owner = combined ? combinatorOwner(error, base) : undefined;
  const problem = toOwnProblem(error, base, suggest);
  return owner === undefined ? problem : { ...problem, owner };
}

/** The problem with the API server's words for it, when they are known and it has a value. */
function withApiServerMessage(
  problem: SchemaProblem,
  error: ErrorObject,
  value: unknown,
  wording: ApiServerWording = {},
): SchemaProblem {
  if (value === undefined) return problem;
  const apiServerMessage = openApiErrorMessage(error, value, wording.kubernetesMinor);
  if (apiServerMessage === undefined) return problem;
  const apiServerPath = openApiErrorPath(error);
  return {
    ...problem,
    apiServerMessage,
    ...(apiServerPath === undefined ? {} : { apiServerPath }),
  };
}

/**
 * Where an error's `schemaPath` starts: the schema its `steps` are taken from, and how many
 * levels into the value that schema applies (`undefined`: it cannot be told).
 */
interface ErrorBase {
  readonly schema: JsonSchema | undefined;
  readonly depth: number | undefined;
  readonly steps: readonly string[];
}

/**
 * Where an error's `schemaPath` starts: the root; or, in a schema with shared subschemas
 * (`shared-subschemas.ts`), the shared subschema the error was found in. ajv writes the path
 * from the root through `definitions` when it compiled the subschema in place, and from the
 * subschema itself when it compiled it as a function of its own: then the subschema is the one
 * that applies where the value's path, less the levels the steps descend, leads.
 */
function errorBase(error: ErrorObject, root?: JsonSchema, value?: unknown): ErrorBase {
  // A path that starts at another schema's `$id` names nothing here.
  if (!error.schemaPath.startsWith('#/')) return { schema: undefined, depth: 0, steps: [] };
  const steps = schemaSteps(error.schemaPath);
  if (!hasSharedSubschemas(root)) return { schema: root, depth: 0, steps };
  const definitions = (root as { definitions: Record<string, JsonSchema> }).definitions;
  const inPlace = steps[0] === 'definitions' && steps.length > 1;
  const relative = inPlace ? steps.slice(2) : steps;
  const instance = parseJsonPointer(error.instancePath);
  const depth = instance.length - fieldsDescended(relative.slice(0, -1));
  const schema =
    depth < 0
      ? undefined
      : inPlace
        ? definitions[steps[1] as string]
        : schemaAppliedAt(root, value, instance, depth);
  return { schema, depth: schema === undefined ? undefined : depth, steps: relative };
}

/** How many levels of the value a schema path's steps descend (`properties/x`, `items`, ...). */
function fieldsDescended(steps: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as string;
    if (step === 'properties' || step === 'patternProperties') {
      count++;
      i++;
    } else if (step === 'additionalProperties' || step === 'additionalItems') {
      count++;
    } else if (step === 'items') {
      count++;
      if (/^\d+$/.test(steps[i + 1] ?? '')) i++;
    } else if (step === 'dependencies') {
      i++;
    }
  }
  return count;
}

/** The steps of a schema path from `#/` (ajv writes it as a URI fragment). */
function schemaSteps(schemaPath: string): string[] {
  return schemaPath
    .slice(2)
    .split('/')
    .map((raw) => decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Keywords that apply subschemas to the same value, whose errors belong to that value's node. */
const COMBINATORS = new Set(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else']);
const COMBINATOR_PATH = /\/(allOf|anyOf|oneOf|not|if|then|else)(\/|$)/;

/**
 * The node that carries the combinator an error was found in: the error's schema path is
 * followed down the instance path, from where it starts, as far as it descends (`properties/x`,
 * `items`, ...). A path through a `$ref`, or one whose start is unknown, cannot be followed: the
 * root is taken, which ratchets least.
 */
function combinatorOwner(error: ErrorObject, base: ErrorBase): string | undefined {
  const { steps } = base;
  const instance = parseJsonPointer(error.instancePath);
  let depth = base.depth ?? 0;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as string;
    if (COMBINATORS.has(step)) {
      return base.depth === undefined ? '' : jsonPointer(instance.slice(0, depth));
    }
    if (step === 'properties' || step === 'patternProperties') {
      depth++;
      i++;
    } else if (step === 'additionalProperties') {
      depth++;
    } else if (step === 'items') {
      depth++;
      if (/^\d+$/.test(steps[i + 1] ?? '')) i++;
    } else {
      return '';
    }
  }
  return undefined;
}

function toOwnProblem(error: ErrorObject, base?: ErrorBase, suggest?: Suggest): SchemaProblem {
  const params = error.params as Record<string, unknown>;
  const path = error.instancePath;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const guess =
        base?.schema === undefined || suggest === undefined
          ? undefined
          : suggest(key, () => declaredFields(base));
      return {
        path: `${path}${jsonPointer([key])}`,
        part: 'key',
        keyword: error.keyword,
        message: `unknown field ${JSON.stringify(shorten(key))}${guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`}`,
      };
    }
    case 'enum':
      return {
        path,
        part: 'value',
        keyword: error.keyword,
        message: `must be one of ${formatValues(params.allowedValues)}`,
      };
    default:
      return {
        path,
        part: 'value',
        keyword: error.keyword,
        // A keyword that says what it found (a list's duplicate) is taken at its word.
        message:
          error.keyword === 'x-kubernetes-list-type' && error.message !== undefined
            ? error.message
            : (KUBERNETES_KEYWORD_MESSAGES[error.keyword] ?? error.message ?? error.keyword),
      };
  }
}

/**
 * The fields declared beside an `additionalProperties` that failed: the `properties` of the
 * schema its steps lead to (from where they start; none when they lead elsewhere, through an
 * `$id`).
 */
function declaredFields(base: ErrorBase): string[] {
  let node: unknown = base.schema;
  for (const step of base.steps.slice(0, -1)) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, step)) return [];
    node = (node as Record<string, unknown>)[step];
  }
  const properties = (node as { properties?: unknown } | null)?.properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

/** Meta-schema errors come in threes (enum, type, anyOf) for one bad place: keep one per place. */
function schemaProblems(errors: readonly ErrorObject[]): SchemaProblem[] {
  const byPath = new Map<string, SchemaProblem>();
  for (const error of errors) {
    if (!byPath.has(error.instancePath)) byPath.set(error.instancePath, toProblem(error));
  }
  return [...byPath.values()];
}

function formatValues(values: unknown): string {
  return Array.isArray(values) ? values.map((v) => JSON.stringify(v)).join(', ') : String(values);
}
