import { defineExplain } from './explain-definition.js';
import { MAX_LINEAGE_DEPTH } from '../../app/explain/lineage-depth.js';
import { explainResource, type Explanation } from '../../app/explain/explain-resource.js';
import type { Finding } from '../../loaders/finding.js';
import { explainSourceOf, loadProjectDefinitions } from '../../app/run-project.js';
import { fieldTree, lookupField, type MissingField } from '../../app/explain/schema-field.js';
import { ApiVersionError, resolveTypePath, type TypePath } from '../../app/explain/type-path.js';
import type { ResourceDefinition } from '../../engine/resource/definition.js';
import type { DefinitionRegistry } from '../../engine/resource/definition-registry.js';
import { splitApiVersion } from '../../loaders/kubernetes/kubernetes-shape.js';
import { BuiltinKinds } from '../../loaders/kubernetes/builtin-kinds.js';
import { didYouMean } from '../../loaders/did-you-mean.js';
import { shorten } from '../../loaders/shorten.js';
import { useColor } from '../io.js';
import { parseFormat, toRunOptions, type CommonFlags } from '../options.js';
import { explainOutput } from '../render/explain/explain-formats.js';
import { FIELD_FORMATS, renderField, type FieldDocument } from '../render/explain/explain-field.js';
import { createColors, renderFindings } from '../render/report.js';
import { typeErrorMessage } from '../../app/resource-query.js';
import { TypeResolutionError } from '../../engine/resource/definition-registry.js';
import { formatPointer, samePointer, type Pointer } from '../../engine/resource/pointer.js';
import {
  elsewhereText,
  resourceElsewhere,
  type ResourceElsewhere,
} from '../../app/explain/resource-elsewhere.js';
import type { CliCommand, CommandResult } from '../command.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { EXPLAIN_FORMATS, renderExplanation } from '../render/explain/render-explain.js';
import type { ExplainDataOptions } from '../render/explain/explain-json.js';
import { projectKubernetesKinds } from '../../app/project-kubernetes-kinds.js';
import { convergeAndSelect } from './converge-and-select.js';
import { writeTraceFile, type TraceFlags } from '../trace-file.js';
import {
  renderReportedRun,
  type ConvergedOutcome,
  type ReportedRun,
} from '../render/reported-run.js';

export interface ExplainFlags extends CommonFlags, TraceFlags {
  output: string;
  namespace?: string;
  depth?: string;
  reverse?: boolean;
  whyNot?: boolean;
  recursive?: boolean;
  /** For a field, with `--recursive`: the levels printed (0: every one). */
  maxDepth?: string;
  /** For a field: the kind at this `GROUP/VERSION` rather than its preferred version. */
  apiVersion?: string;
  /** Only this field of the resource: who set it, and a declarative controller's template line. */
  field?: string;
}

/**
 * `cosi explain TYPE ID -f PATH...`: runs the project with every reconcile recorded, then says
 * why the resource is as it is (or, with `--why-not`, why it is not there). `cosi explain
 * TYPE[.field.path]`, with no id: the field's documentation, as `kubectl explain` prints it.
 */
export const explainCommand: CliCommand<[string, string | undefined, ExplainFlags], ExplainResult> =
  {
    define: defineExplain,
    run: explain,
    render: renderExplain,
  };

/** What `cosi explain` shows: a resource's explanation from a recorded run, or a field's documentation. */
export type ExplainResult =
  | {
      readonly kind: 'resource';
      readonly run: ReportedRun<{
        readonly pointer: Pointer;
        readonly explanation: Explanation;
        /** How its resource prints in JSON and YAML, as `cosi get` prints it. */
        readonly document: ExplainDataOptions;
        /** When it is not there: the namespaces that have its id, or the nearest id. */
        readonly elsewhere?: ResourceElsewhere;
      }>;
    }
  | {
      readonly kind: 'field';
      /** The errors of manifests that were read for their definitions: said, not fatal. */
      readonly errors: readonly Finding[];
      readonly document?: FieldDocument;
      /** Why the field could not be explained (a usage error), said after the errors. */
      readonly failure?: string;
    };

export async function explain(
  io: CliIo,
  typeArgument: string,
  idArgument: string | undefined,
  flags: ExplainFlags,
): Promise<CommandResult<ExplainResult>> {
  if (idArgument === undefined && !typeArgument.includes('/') && flags.whyNot !== true) {
    if (flags.trace !== undefined) {
      throw new CliError(
        `--trace: records the run that explains a resource; explain ${typeArgument} documents a type and runs nothing`,
      );
    }
    return explainField(io, typeArgument, flags);
  }
  refuseFieldFlags(flags);
  if (flags.trace !== undefined) {
    await (await import('../output-file.js')).checkOutputPath(flags.trace, io.cwd);
  }
  parseFormat(explainOutput(flags.output), EXPLAIN_FORMATS);
  const depth = parseDepth(flags.depth);
  const { type, id } = splitTypeArgument(typeArgument, idArgument);
  const run = await convergeAndSelect(
    flags,
    io,
    [],
    (outcome, projectRun) => {
      const source = explainSourceOf(outcome, projectRun.manifests.resources);
      if (!source) throw new Error('explain: the run was not recorded');
      let pointer = resolvePointer(outcome, type, id, flags.namespace);
      let elsewhere: ResourceElsewhere | undefined;
      if (!source.resources.some((r) => samePointer(r.metadata, pointer))) {
        elsewhere = resourceElsewhere(source.resources, pointer);
        // As `cosi get` without -n finds it in any namespace: the one namespace that has it.
        const [only] = elsewhere.namespaces;
        if (flags.namespace === undefined && flags.whyNot !== true && only !== undefined) {
          if (elsewhere.namespaces.length === 1) {
            pointer = { ...pointer, namespace: only };
            elsewhere = undefined;
          }
        }
      }
      const explanation = explainResource(source, pointer, {
        ...(depth === undefined ? {} : { depth }),
        ...(flags.reverse === true ? { reverse: true } : {}),
        ...(flags.field === undefined ? {} : { field: flags.field }),
      });
      if (flags.field !== undefined && explanation.resource && explanation.fields.length === 0) {
        const known = explainResource(source, pointer, { depth: 0 }).fields.map((f) => f.field);
        throw new CliError(
          `--field: ${formatPointer(pointer)} has no field ${JSON.stringify(shorten(flags.field))}; its fields: ${known.join(', ') || 'none'}`,
          EXIT.usage,
        );
      }
      const registry = outcome.project.registry;
      const definition = registry.get(pointer.type);
      const document: ExplainDataOptions = {
        ...(definition ? { definition } : {}),
        ownerKinds: projectKubernetesKinds(registry, undefined),
      };
      return { pointer, explanation, document, ...(elsewhere ? { elsewhere } : {}) };
    },
    { record: true },
  );
  // The run's own verdict stands (a run that did not converge still exits 3), unless the resource
  // is not there and --why-not was not asked for.
  const absent = run.converged && !run.converged.data.explanation.resource && flags.whyNot !== true;
  return { exitCode: absent ? EXIT.findings : run.exitCode, result: { kind: 'resource', run } };
}

/**
 * The explanation (or the field's documentation) to stdout; notes, findings and the report to
 * stderr; then the `--trace` file.
 */
export async function renderExplain(
  io: CliIo,
  { result }: CommandResult<ExplainResult>,
  _type: string,
  _id: string | undefined,
  flags: ExplainFlags,
): Promise<void> {
  if (result.kind === 'field') {
    if (result.errors.length > 0) {
      io.stderr.write(renderFindings(result.errors, createColors(useColor(io, flags.color))));
    }
    if (result.failure !== undefined) io.stderr.write(`cosi: ${result.failure}\n`);
    if (result.document) {
      io.stdout.write(
        renderField(result.document, parseFormat(explainOutput(flags.output), FIELD_FORMATS)),
      );
    }
    return;
  }
  const format = parseFormat(explainOutput(flags.output), EXPLAIN_FORMATS);
  renderReportedRun(io, result.run, flags, ({ pointer, explanation, document, elsewhere }) => {
    if (!explanation.resource && flags.whyNot !== true) {
      const hint = elsewhere ? elsewhereText(elsewhere) : '';
      io.stderr.write(
        `cosi: ${formatPointer(pointer)} does not exist${hint}: add --why-not to see what stopped its writers\n`,
      );
      return;
    }
    if (explanation.resource && flags.whyNot === true) {
      io.stderr.write(`cosi: ${formatPointer(pointer)} exists: explaining it instead\n`);
    }
    io.stdout.write(
      renderExplanation(explanation, format, { ...document, stable: flags.stable === true }),
    );
  });
  const project = result.run.run.outcome?.project;
  if (flags.trace !== undefined && project?.record) {
    await writeTraceFile(flags.trace, project.record, {
      cwd: io.cwd,
      stable: flags.stable === true,
      registry: project.registry,
    });
  }
}

/** The flags of a type's fields mean nothing for a resource: said, not ignored. */
function refuseFieldFlags(flags: ExplainFlags): void {
  const given = [
    ...(flags.recursive === true ? ['--recursive'] : []),
    ...(flags.maxDepth === undefined ? [] : ['--max-depth']),
    ...(flags.apiVersion === undefined ? [] : ['--api-version']),
  ];
  if (given.length > 0) {
    throw new CliError(
      `${given.join(', ')}: only for a type's fields (TYPE.field.path, no id), not for a resource`,
    );
  }
}

/** `--max-depth`: kubectl's, a whole number of levels (0: every one), only with --recursive. */
function parseMaxDepth(flags: ExplainFlags): number | undefined {
  const value = flags.maxDepth;
  if (value === undefined) return undefined;
  const depth = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(depth)) {
    throw new CliError(
      `--max-depth: expected a whole number of levels, got ${JSON.stringify(value)}`,
    );
  }
  if (depth > 0 && flags.recursive !== true) throw new CliError('--max-depth requires --recursive');
  return depth;
}

function parseDepth(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const depth = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(depth)) {
    throw new CliError(`--depth: expected a whole number of hops, got ${JSON.stringify(value)}`);
  }
  if (depth > MAX_LINEAGE_DEPTH) {
    throw new CliError(`--depth: at most ${MAX_LINEAGE_DEPTH} hops, got ${depth}`);
  }
  return depth;
}

/** `vm/web-1` is `vm web-1`. */
function splitTypeArgument(type: string, id: string | undefined): { type: string; id: string } {
  const slash = type.indexOf('/');
  if (slash >= 0) {
    if (id !== undefined) {
      throw new CliError(`explain: give the id once, as ${type} or as a second argument`);
    }
    return { type: type.slice(0, slash), id: type.slice(slash + 1) };
  }
  if (id === undefined) throw new CliError('explain: give the resource id (TYPE ID or TYPE/ID)');
  return { type, id };
}

/**
 * The resource named: a type by any alias (or, for a type controllers write that has no
 * definition, its exact name in any case), in the given namespace or the type's default.
 */
function resolvePointer(
  outcome: ConvergedOutcome,
  name: string,
  id: string,
  namespace: string | undefined,
): Pointer {
  try {
    const definition = outcome.project.registry.resolve(name);
    return { namespace: namespace ?? definition.defaultNamespace, type: definition.type, id };
  } catch (error) {
    if (!(error instanceof TypeResolutionError)) throw error;
    const graph = outcome.project.runtime.dependencyGraph();
    const known = new Set([
      ...graph.types,
      ...outcome.snapshot.resources.map((r) => r.metadata.type),
    ]);
    const matches = [...known].filter((t) => t.toLowerCase() === name.toLowerCase());
    if (error.code === 'unknown-type' && matches.length === 1) {
      return { namespace: namespace ?? 'default', type: matches[0] as string, id };
    }
    throw new CliError(typeErrorMessage(error, outcome.project.registry, [...known]), EXIT.usage);
  }
}

/**
 * `cosi explain TYPE[.field.path]`: the field's documentation, from the definitions of the
 * config, the `--definitions` paths and the manifests; nothing is run.
 */
async function explainField(
  io: CliIo,
  argument: string,
  flags: ExplainFlags,
): Promise<CommandResult<ExplainResult>> {
  parseFormat(explainOutput(flags.output), FIELD_FORMATS);
  const maxDepth = parseMaxDepth(flags);
  const options = await toRunOptions(flags, io, { manifestsOptional: 'always' });
  const { manifests } = await loadProjectDefinitions(options);
  const builtins = BuiltinKinds.of(options.kubernetesVersion);
  // Broken manifests do not keep the valid definitions from being explained: said, not fatal.
  const errors = manifests.findings.filter((f) => f.severity === 'error');
  const failed = (failure: string): CommandResult<ExplainResult> => ({
    exitCode: EXIT.usage,
    result: { kind: 'field', errors, failure },
  });
  let target: TypePath;
  try {
    target = resolveTypePath(manifests.registry, argument, builtins, flags.apiVersion);
  } catch (error) {
    if (error instanceof ApiVersionError) return failed(`explain: ${error.message}`);
    if (!(error instanceof TypeResolutionError)) throw error;
    // cosi's own definition type is always there: nothing else means nothing was read.
    const none = manifests.registry.all().length <= 1;
    const guess = didYouMean(error.typeName, builtins.kinds());
    return failed(
      none
        ? `explain: ${error.message}${guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`}: no definitions were found beside the built-in Kubernetes kinds: give the manifests (-f), --definitions or --config`
        : `explain: ${typeErrorMessage(error, manifests.registry, builtins.kinds())}${chooseByGroup(error, manifests.registry)}`,
    );
  }
  const { definition, path } = target;
  // A CRD's apiVersion, kind and metadata as the API server publishes them (metadata: ObjectMeta).
  const objectFields = definition.kubernetes === undefined ? undefined : builtins.objectFields();
  const lookup = lookupField(definition, path, objectFields);
  if (lookup.missing !== undefined) {
    return failed(`explain: ${missingFieldMessage(definition, lookup.missing)}`);
  }
  const field = lookup.found;
  const tree =
    flags.recursive === true ? fieldTree(definition, field, maxDepth, objectFields) : undefined;
  return {
    exitCode: EXIT.ok,
    result: {
      kind: 'field',
      errors,
      document: { definition, field, ...(tree === undefined ? {} : { tree }) },
    },
  };
}

/**
 * For a name the kinds of several groups share: how to choose one, as kubectl's `--api-version`
 * does (`; choose one with --api-version networking.istio.io/v1 or ...`); empty otherwise.
 */
function chooseByGroup(error: TypeResolutionError, registry: DefinitionRegistry): string {
  if (error.code !== 'ambiguous-type') return '';
  const apiVersions = error.candidates.map((type) => registry.get(type)?.kubernetes?.apiVersion);
  const groups = new Set(apiVersions.map((v) => (v === undefined ? v : splitApiVersion(v).group)));
  if (apiVersions.includes(undefined) || groups.size !== apiVersions.length) return '';
  return `; choose one with --api-version ${(apiVersions as string[]).join(' or ')}`;
}

/** `VMs.example.org.spec has no field "cpu" (did you mean "cpus"?); its fields: ...`. */
function missingFieldMessage(definition: ResourceDefinition, missing: MissingField): string {
  const at = [definition.type, ...missing.parent].join('.');
  const guess =
    missing.suggestion === undefined
      ? ''
      : ` (did you mean ${JSON.stringify(missing.suggestion)}?)`;
  if (missing.known.length === 0) {
    return `${at} is <${missing.parentType}>: it has no fields, so no field ${JSON.stringify(shorten(missing.name))}`;
  }
  return `${at} has no field ${JSON.stringify(shorten(missing.name))}${guess}; its fields: ${missing.known.join(', ')}`;
}
