import { defineGet, GET_FORMATS } from './get-definition.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { CliCommand, CommandResult } from '../command.js';
import type { CliIo } from '../io.js';
import { parseFormat, type CommonFlags } from '../options.js';
import {
  customColumnsFormat,
  jsonPathAsJsonFormat,
  jsonPathFormat,
  writeResources,
  type ResourceFormat,
} from '../render/resources.js';
import {
  selectResources,
  type QueriedState,
  type ResourceGroup,
} from '../../app/resource-query.js';
import { renderReportedRun, type ReportedRun } from '../render/reported-run.js';
import { readStateFlag } from '../state-option.js';
import { parseLabelSelector } from '../label-selector.js';
import { parseSortBy, sortResourceGroups } from '../render/sort-resources.js';
import { convergeAndSelect } from './converge-and-select.js';
import { BuiltinKinds } from '../../loaders/kubernetes/builtin-kinds.js';
import { parseKubernetesRelease } from '../../loaders/kubernetes/kubernetes-release.js';

export interface GetFlags extends CommonFlags {
  output: string;
  namespace?: string;
  allNamespaces?: boolean;
  /** `--no-headers` (commander's negation: `false` when given). */
  headers?: boolean;
  showLabels?: boolean;
  sortBy?: string;
  selector?: string;
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
      readonly missingIds?: readonly string[];
    }
  | {
      readonly from: 'state';
      readonly groups: ResourceGroup[];
      readonly id?: string;
      readonly missingIds?: readonly string[];
      /** A kind asked for could not be read (said on stderr as the state was read). */
      readonly unreadable?: true;
    }
  /** `-w`: everything was printed as it came. */
  | { readonly from: 'watch' };

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
  const { type, ids } = splitTypeArgument(typeArgument, idArguments);
  // One id is kubectl's single object; several, a list of those found.
  const id = ids.length === 1 ? ids[0] : undefined;
  const several = ids.length > 1 ? ids : undefined;
  if (several !== undefined && flags.watch === true) {
    throw new CliError('get -w: one id, or a type, at a time');
  }
  if (flags.outputWatchEvents === true && flags.watch !== true) {
    throw new CliError('--output-watch-events: with -w (--watch)');
  }
  if (flags.watch === true) {
    // Loaded only for -w: the one-shot get does not need the watch session.
    const { getWatch } = await import('./get-watch.js');
    const query = {
      type: type.split(','),
      ...(id !== undefined ? { id } : {}),
      ...(namespace !== undefined ? { namespace } : {}),
      ...(selector !== undefined ? { selector } : {}),
    };
    const asked = { types: type.split(','), query, ...(id !== undefined ? { id } : {}) };
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
  const select = (outcome: QueriedState): ResourceGroup[] =>
    selectResources(
      { ...outcome, builtins },
      {
        type: type.split(','),
        ...(id !== undefined ? { id } : {}),
        ...(several !== undefined ? { ids: several } : {}),
        ...(namespace !== undefined ? { namespace } : {}),
        ...(selector !== undefined ? { selector } : {}),
      },
    );
  /** Of several ids, those no group holds. */
  const notFound = (groups: readonly ResourceGroup[]): string[] => {
    if (several === undefined) return [];
    const found = new Set(groups.flatMap((g) => g.resources.map((r) => r.metadata.id)));
    return several.filter((asked) => !found.has(asked));
  };
  // A resource asked for by id that is not there fails the command.
  const missing = (groups: readonly ResourceGroup[]): boolean =>
    (id !== undefined && groups.length === 0) || notFound(groups).length > 0;
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
    const missingIds = notFound(groups);
    return {
      exitCode: missing(groups) ? EXIT.findings : EXIT.ok,
      result: { from: 'state', groups, ...asked, ...(missingIds.length > 0 ? { missingIds } : {}) },
    };
  }
  const run = await convergeAndSelect(flags, io, [], select);
  const exitCode = run.converged && missing(run.converged.data) ? EXIT.findings : run.exitCode;
  const missingIds = run.converged ? notFound(run.converged.data) : [];
  return {
    exitCode,
    result: { from: 'run', run, ...asked, ...(missingIds.length > 0 ? { missingIds } : {}) },
  };
}

/**
 * The resources to stdout in the `-o` format; as kubectl, an empty answer is said on stderr, so
 * stdout stays empty for scripts. A run's findings and report go to stderr around them.
 */
export function renderGet(
  io: CliIo,
  { result }: CommandResult<GetResult>,
  typeArgument: string,
  idArguments: string[],
  flags: GetFlags,
): void {
  if (result.from === 'watch') return;
  const format = parseGetFormat(flags.output);
  const { type } = splitTypeArgument(typeArgument, idArguments);
  const print = (groups: readonly ResourceGroup[]): void => {
    // As kubectl: those found on stdout, each one not found on stderr.
    for (const missingId of result.missingIds ?? []) {
      io.stderr.write(
        `cosi: resource ${JSON.stringify(missingId)} of type ${JSON.stringify(type)} not found\n`,
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
      io.stderr.write(
        crd
          ? 'No resources found: the CustomResourceDefinitions read define types, listed by cosi get rd\n'
          : 'No resources found\n',
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
  } else renderReportedRun(io, result.run, flags, print);
}

/** `vm/web-1` is `vm web-1`, as kubectl takes `TYPE/NAME`. */
function splitTypeArgument(type: string, ids: readonly string[]): { type: string; ids: string[] } {
  const slash = type.indexOf('/');
  if (slash < 0) return { type, ids: [...ids] };
  if (ids.length > 0) {
    throw new CliError(`get: give the id once, as ${type} or as a second argument, not both`);
  }
  return { type: type.slice(0, slash), ids: [type.slice(slash + 1)] };
}

/**
 * Whether a format prints an answer of no resources itself: JSON's is `[]`, as `apply -o json`
 * and `diff -o json` print it, so `cosi get vm -l tier=db -o json | jq length` says 0.
 */
function printsEmpty(format: ResourceFormat): boolean {
  return format === 'json' || (typeof format === 'object' && 'jsonpathAsJson' in format);
}

function parseGetFormat(output: string): ResourceFormat {
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
  return parseFormat(output, GET_FORMATS) as ResourceFormat;
}
