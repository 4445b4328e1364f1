import { defineGet, GET_FORMATS } from './get-definition.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { CliCommand, CommandResult } from '../command.js';
import type { CliIo } from '../io.js';
import type { CommonFlags } from '../options.js';
import { writeResources, type ResourceFormat } from '../render/resources.js';
import { noResourcesFound, parseResourceFormat } from './resource-output.js';
import {
  selectResources,
  type QueriedState,
  type ResourceGroup,
} from '../../app/resource-query.js';
import { renderReportedRun, type ReportedRun } from '../render/reported-run.js';
import { readStateFlag } from '../state-option.js';
import { parseLabelSelector } from '../label-selector.js';
import { parseFieldSelector } from '../field-selector.js';
import { toDocument } from '../../app/output-document.js';
import type { Resource } from '../../engine/resource/resource.js';
import type { ResourceDefinition } from '../../engine/resource/definition.js';
import { parseSortBy, sortResourceGroups } from '../render/sort-resources.js';
import { convergeAndSelect } from './converge-and-select.js';
import { writeTraceFile, type TraceFlags } from '../trace-file.js';
import { BuiltinKinds } from '../../loaders/kubernetes/builtin-kinds.js';
import { parseKubernetesRelease } from '../../loaders/kubernetes/kubernetes-release.js';

export interface GetFlags extends CommonFlags, TraceFlags {
  output: string;
  namespace?: string;
  allNamespaces?: boolean;
  /** `--no-headers` (commander's negation: `false` when given). */
  headers?: boolean;
  showLabels?: boolean;
  sortBy?: string;
  selector?: string;
  /** `--field-selector`: kubectl's field selector. */
  fieldSelector?: string;
  /** Read a running system's state instead of running the project. */
  state?: string;
  /** With --state: how long a request waits for etcd (`5s`). */
  requestTimeout?: string;
  /** `-w`: print the resources, then every change, until interrupted. */
  watch?: boolean;
  /** With -w: each row or document says ADDED, MODIFIED or DELETED. */
  outputWatchEvents?: boolean;
}

/**
 * What `cosi get` shows: the resources asked for, from a run of the project (with its findings
 * and report) or from a running system's state (`--state`).
 */
export type GetResult =
  | {
      readonly from: 'run';
      readonly run: ReportedRun<ResourceGroup[]>;
      readonly id?: string;
      /** Of several ids asked for, those not found (each said on stderr). */
      readonly missingIds?: readonly MissingResource[];
    }
  | {
      readonly from: 'state';
      readonly groups: ResourceGroup[];
      readonly id?: string;
      readonly missingIds?: readonly MissingResource[];
      /** A kind asked for could not be read (said on stderr as the state was read). */
      readonly unreadable?: true;
    }
  /** `-w`: everything was printed as it came. */
  | { readonly from: 'watch' };

/** A resource asked for by id that is not there, with its type as the command line named it. */
export interface MissingResource {
  readonly type: string;
  readonly id: string;
}

/** `cosi get TYPE [ID] -f PATH...`: the same run as apply, then one type or one resource. */
export const getCommand: CliCommand<[string, string[], GetFlags], GetResult> = {
  define: defineGet,
  run: get,
  render: renderGet,
};

export async function get(
  io: CliIo,
  typeArgument: string,
  idArguments: string[],
  flags: GetFlags,
): Promise<CommandResult<GetResult>> {
  const format = parseGetFormat(flags.output);
  if (flags.sortBy !== undefined) parseSortBy(flags.sortBy);
  const namespace = flags.allNamespaces === true ? undefined : flags.namespace;
  const selector = flags.selector === undefined ? undefined : parseLabelSelector(flags.selector);
  const fields = fieldsOf(flags.fieldSelector);
  const requests = askedResources(typeArgument, idArguments);
  // `vm,host web-1` asks each type for the ids; `vm/web-1 host/node-a`, each type for its own.
  const type = requests.map((r) => r.type).join(',');
  const ids = typeArgument.includes('/') ? requests.flatMap((r) => r.ids) : idArguments;
  // One id of one type is kubectl's single object; else a list of those found.
  const id = requests.length === 1 && ids.length === 1 ? ids[0] : undefined;
  const several = id === undefined && ids.length > 0 ? ids : undefined;
  // -w follows one id (of one type or several), or types.
  const watchedId = ids.length === 1 ? ids[0] : undefined;
  if (ids.length > 1 && flags.watch === true) {
    throw new CliError('get -w: one id, or a type, at a time');
  }
  if (flags.outputWatchEvents === true && flags.watch !== true) {
    throw new CliError('--output-watch-events: with -w (--watch)');
  }
  if (flags.trace !== undefined) {
    // A trace is of one run of the project: --state reads one that runs elsewhere, -w several.
    if (flags.state !== undefined)
      throw new CliError('--trace: records a run of the project; with --state nothing runs');
    if (flags.watch === true)
      throw new CliError(
        '--trace: records one run of the project; get -w runs it again on each change (cosi watch --trace records those)',
      );
    await (await import('../output-file.js')).checkOutputPath(flags.trace, io.cwd);
  }
  if (flags.watch === true) {
    // Loaded only for -w: the one-shot get does not need the watch session.
    const { getWatch } = await import('./get-watch.js');
    const query = {
      type: type.split(','),
      ...(watchedId !== undefined ? { id: watchedId } : {}),
      ...(namespace !== undefined ? { namespace } : {}),
      ...(selector !== undefined ? { selector } : {}),
      ...(fields !== undefined ? { fields } : {}),
    };
    const asked = {
      types: type.split(','),
      query,
      ...(watchedId !== undefined ? { id: watchedId } : {}),
    };
    return { exitCode: await getWatch(io, asked, format, flags), result: { from: 'watch' } };
  }
  // Kubernetes' own kinds by kubectl's names, for one nothing here uses (`get sa`: none found).
  const catalog = (): BuiltinKinds =>
    BuiltinKinds.of(
      flags.kubernetesVersion === undefined
        ? undefined
        : parseKubernetesRelease(flags.kubernetesVersion),
    );
  const builtins = {
    findByName: (name: string) => catalog().findByName(name),
    kinds: () => catalog().kinds(),
  };
  /** Of several ids, those not found, per request (set as the resources are selected). */
  let absent: MissingResource[] = [];
  const select = (outcome: QueriedState): ResourceGroup[] => {
    absent = [];
    const selected = requests.map((request) => {
      const groups = selectResources(
        { ...outcome, builtins },
        {
          type: request.type.split(','),
          ...(id !== undefined ? { id } : {}),
          ...(several !== undefined ? { ids: request.ids } : {}),
          ...(namespace !== undefined ? { namespace } : {}),
          ...(selector !== undefined ? { selector } : {}),
          ...(fields !== undefined ? { fields } : {}),
        },
      );
      if (several !== undefined) {
        const found = new Set(groups.flatMap((g) => g.resources.map((r) => r.metadata.id)));
        for (const asked of request.ids) {
          if (!found.has(asked)) absent.push({ type: request.type, id: asked });
        }
      }
      return groups;
    });
    return mergeGroups(selected.flat());
  };
  const notFound = (): MissingResource[] => absent;
  // A resource asked for by id that is not there fails the command.
  const missing = (groups: readonly ResourceGroup[]): boolean =>
    (id !== undefined && groups.length === 0) || absent.length > 0;
  const asked = id === undefined ? {} : { id };
  // The kinds a state could not read (a corrupt value) are said on stderr as it is read.
  const view = await readStateFlag(flags.state, flags.requestTimeout, io.stderr);
  if (view) {
    // A kind left out fails the command that asks for it, and only that one: with 2, the state
    // cannot be read (the exit-code table), not 1, which says no such resource.
    const askedTypes = type.split(',').map((name) => {
      try {
        return view.registry.resolve(name).type;
      } catch {
        return name;
      }
    });
    if (view.unreadable.some(({ kind }) => askedTypes.includes(kind.type))) {
      return { exitCode: EXIT.usage, result: { from: 'state', groups: [], unreadable: true } };
    }
    const groups = select({ project: view, snapshot: view.snapshot });
    const missingIds = notFound();
    return {
      exitCode: missing(groups) ? EXIT.findings : EXIT.ok,
      result: { from: 'state', groups, ...asked, ...(missingIds.length > 0 ? { missingIds } : {}) },
    };
  }
  const run = await convergeAndSelect(flags, io, [], select, { record: flags.trace !== undefined });
  const exitCode = run.converged && missing(run.converged.data) ? EXIT.findings : run.exitCode;
  const missingIds = run.converged ? notFound() : [];
  return {
    exitCode,
    result: { from: 'run', run, ...asked, ...(missingIds.length > 0 ? { missingIds } : {}) },
  };
}

/**
 * The resources to stdout in the `-o` format; as kubectl, an empty answer is said on stderr, so
 * stdout stays empty for scripts. A run's findings and report go to stderr around them; then the
 * `--trace` file.
 */
export async function renderGet(
  io: CliIo,
  { result }: CommandResult<GetResult>,
  typeArgument: string,
  idArguments: string[],
  flags: GetFlags,
): Promise<void> {
  if (result.from === 'watch') return;
  const format = parseGetFormat(flags.output);
  const type = askedResources(typeArgument, idArguments)
    .map((r) => r.type)
    .join(',');
  const print = (groups: readonly ResourceGroup[]): void => {
    // As kubectl: those found on stdout, each one not found on stderr.
    for (const absent of result.missingIds ?? []) {
      io.stderr.write(
        `cosi: resource ${JSON.stringify(absent.id)} of type ${JSON.stringify(absent.type)} not found\n`,
      );
    }
    if (result.missingIds !== undefined && groups.length === 0) return;
    if (result.id !== undefined && groups.length === 0) {
      io.stderr.write(
        `cosi: resource ${JSON.stringify(result.id)} of type ${JSON.stringify(type)} not found\n`,
      );
    } else if (groups.length === 0 && !printsEmpty(format)) {
      // The manifests' CRDs define cosi types: kubectl's `get crd` habit finds them as rd.
      const crd = /^(crds?|customresourcedefinitions?)(\.apiextensions\.k8s\.io)?$/i.test(type);
      const namespace = flags.allNamespaces === true ? undefined : flags.namespace;
      io.stderr.write(
        crd
          ? 'No resources found: the CustomResourceDefinitions read define types, listed by cosi get rd\n'
          : noResourcesFound(namespace),
      );
    } else {
      // As kubectl, one resource asked for by id is not sorted, so its path is not checked.
      const sorted =
        flags.sortBy === undefined
          ? groups
          : sortResourceGroups(groups, parseSortBy(flags.sortBy), {
              requireValue: result.id === undefined,
            });
      writeResources(sorted, format, (chunk) => io.stdout.write(chunk), {
        stable: flags.stable === true,
        single: result.id !== undefined,
        noHeaders: flags.headers === false,
        showLabels: flags.showLabels === true,
      });
    }
  };
  if (result.from === 'state') {
    if (result.unreadable !== true) print(result.groups);
    return;
  }
  renderReportedRun(io, result.run, flags, print);
  const project = result.run.run.outcome?.project;
  if (flags.trace !== undefined && project?.record) {
    await writeTraceFile(flags.trace, project.record, {
      cwd: io.cwd,
      stable: flags.stable === true,
      registry: project.registry,
    });
  }
}

/** What `get` asks for: a type (or several, `vm,host`) and its ids. */
interface AskedResources {
  readonly type: string;
  readonly ids: readonly string[];
}

/**
 * `vm web-1 web-2`, `vm,host web-1`, or, as kubectl takes `TYPE/NAME`, `vm/web-1` and `vm/web-1 host/node-a`
 * (what `-o name` prints, so `cosi get $(cosi get vm -o name)` works): the ids of one type
 * together, the types in the order given.
 */
function askedResources(type: string, ids: readonly string[]): AskedResources[] {
  if (!type.includes('/')) {
    // `vm,host web-1`: the ids of each type, as kubectl's `get pods,svc foo`, so one that a
    // type lacks is said, not hidden by another type that has it.
    const types = type.split(',');
    return types.length > 1 && ids.length > 0
      ? types.map((each) => ({ type: each, ids: [...ids] }))
      : [{ type, ids: [...ids] }];
  }
  const asked: { type: string; ids: string[] }[] = [];
  for (const argument of [type, ...ids]) {
    const slash = argument.indexOf('/');
    if (slash < 0) {
      throw new CliError(
        `get: ${argument}: give every resource as TYPE/ID (${type} host/node-a), or a type and then its ids (vm web-1 web-2), not both`,
      );
    }
    const named = argument.slice(0, slash);
    const id = argument.slice(slash + 1);
    if (named === '' || id === '' || id.includes('/')) {
      throw new CliError(
        `get: ${argument}: expected TYPE/ID, one resource per argument (vm/web-1 host/node-a)`,
      );
    }
    const same = asked.find((a) => a.type.toLowerCase() === named.toLowerCase());
    if (same) same.ids.push(id);
    else asked.push({ type: named, ids: [id] });
  }
  return asked;
}

/** Groups of one type, from requests naming it by two aliases (`vm/a vms/b`), as one. */
function mergeGroups(groups: readonly ResourceGroup[]): ResourceGroup[] {
  const byType = new Map<string, ResourceGroup>();
  for (const group of groups) {
    const before = byType.get(group.type);
    if (before === undefined) {
      byType.set(group.type, group);
      continue;
    }
    const seen = new Set(before.resources);
    byType.set(group.type, {
      ...before,
      resources: [...before.resources, ...group.resources.filter((r) => !seen.has(r))],
    });
  }
  return [...byType.values()];
}

/**
 * `--field-selector` as a query's filter: the selector run on each resource's document as
 * `-o json` prints it (the Kubernetes shape for a Kubernetes kind).
 */
function fieldsOf(
  text: string | undefined,
): ((resource: Resource, definition: ResourceDefinition | undefined) => boolean) | undefined {
  if (text === undefined) return undefined;
  const matches = parseFieldSelector(text);
  return (resource, definition) => matches(toDocument(resource, definition, { stable: true }));
}

/**
 * Whether a format prints an answer of no resources itself: `-o json`'s is an empty `kind: List`,
 * as kubectl's, so `cosi get vm -l tier=db -o json | jq '.items | length'` says 0;
 * `-o jsonpath-as-json`'s is `[]`.
 */
function printsEmpty(format: ResourceFormat): boolean {
  return format === 'json' || (typeof format === 'object' && 'jsonpathAsJson' in format);
}

function parseGetFormat(output: string): ResourceFormat {
  return parseResourceFormat(output, GET_FORMATS);
}
