import type { Kind } from '../../engine/resource/pointer.js';
import { RESOURCE_DEFINITION_TYPE } from '../../engine/resource/definition.js';
import { toError } from '../../engine/errors.js';
import {
  resolveQueryTypes,
  ResourceQueryError,
  type QueriedState,
  type ResourceGroup,
  type ResourceQuery,
} from '../../app/resource-query.js';
import { SelectionChanges } from '../../app/selection-changes.js';
import { watchStateKinds } from '../../app/state-kinds-watch.js';
import type { StateView } from '../../app/state-view.js';
import { startWatchSession, type WatchRound, type WatchSession } from '../../app/watch-session.js';
import { CliError, EXIT, type ExitCode } from '../exit-codes.js';
import { useColor, type CliIo } from '../io.js';
import { toRunOptions, type CommonFlags } from '../options.js';
import { createColors, describeReason, renderFindings } from '../render/report.js';
import {
  createResourceEventWriter,
  takesWatchEvents,
  type ResourceEventWriter,
} from '../render/resource-events.js';
import type { ResourceFormat } from '../render/resources.js';
import { parseSortBy, sortResourceGroups } from '../render/sort-resources.js';
import { openStateFlag } from '../state-option.js';
import { noResourcesFound } from './resource-output.js';
import { holdUntilWatching } from '../watch/hold-until-watching.js';
import { watchWithChokidar } from '../watch/file-watcher.js';

/** What `cosi get -w` reads beside `get`'s flags. */
export interface GetWatchFlags extends CommonFlags {
  headers?: boolean;
  showLabels?: boolean;
  sortBy?: string;
  state?: string;
  requestTimeout?: string;
  /** `--output-watch-events`: ADDED / MODIFIED / DELETED on every row or document. */
  outputWatchEvents?: boolean;
}

/** What `cosi get -w` asks for: the query, and the types as written (`vm,host`). */
export interface WatchQuery {
  readonly types: readonly string[];
  readonly query: ResourceQuery;
  readonly id?: string;
}

/**
 * `cosi get TYPE [ID] -w`, as `kubectl get -w`: prints the resources, then one row (or
 * document) per change until interrupted (Ctrl-C, SIGTERM: exit 0). With `--state`, the changes
 * a running system writes, read from the state's watches; without, the project converged again
 * on every file change (as `cosi watch`), and the rows that changed after each round.
 */
export async function getWatch(
  io: CliIo,
  asked: WatchQuery,
  format: ResourceFormat,
  flags: GetWatchFlags,
): Promise<ExitCode> {
  if (flags.outputWatchEvents === true && !takesWatchEvents(format)) {
    throw new CliError(
      '--output-watch-events: with -o table, wide, name, json or yaml (a template has no place for the event)',
    );
  }
  if (flags.state !== undefined && /^memory(:|$)/.test(flags.state)) {
    throw new CliError(
      '--state memory: an in-memory state lives in the process that runs the project, and another process cannot watch it: give the etcd://HOST:PORT/PREFIX a `cosi run` serves, or -f to run the project here',
    );
  }
  const onInterrupt = io.onInterrupt;
  if (onInterrupt === undefined) {
    throw new CliError('get -w runs until interrupted, and this process cannot be');
  }
  const writer = createResourceEventWriter(format, (text) => io.stdout.write(text), {
    stable: flags.stable === true,
    single: asked.id !== undefined,
    noHeaders: flags.headers === false,
    showLabels: flags.showLabels === true,
    events: flags.outputWatchEvents === true,
  });
  const showInitial = (groups: readonly ResourceGroup[]): void => {
    if (groups.length === 0) {
      io.stderr.write(
        asked.id === undefined
          ? noResourcesFound(asked.query.namespace)
          : `cosi: resource ${JSON.stringify(asked.id)} of type ${JSON.stringify(asked.types.join(','))} not found (yet): watching\n`,
      );
    }
    const sorted =
      flags.sortBy === undefined ? groups : sortResourceGroups(groups, parseSortBy(flags.sortBy));
    writer.initial(sorted);
  };
  const opened = await waitForContents(
    await openStateFlag(flags.state, flags.requestTimeout, io.stderr, {
      keepAlive: WATCH_KEEP_ALIVE,
    }),
    flags,
    asked.types,
    onInterrupt,
    io,
  );
  // Interrupted while the state held nothing yet.
  if (flags.state !== undefined && opened === undefined) return EXIT.ok;
  if (opened) {
    try {
      return await watchState(opened, asked, showInitial, writer, onInterrupt, io);
    } finally {
      await opened.close();
    }
  }
  return watchProject(io, asked, showInitial, writer, onInterrupt, flags);
}

/** How often a state that holds nothing yet is read again. */
const EMPTY_STATE_POLL = 1_000;

/**
 * A state that holds nothing yet (the system is being brought up) is read again until it holds
 * something, as `kubectl get -w` waits for a first object: its types are known only then. Found
 * empty, it is read again until the types asked for are defined too: the process bringing it up
 * writes its definitions one after the other, and the first may not be the one asked for.
 * Interrupted meanwhile: `undefined`, and the state is closed.
 */
async function waitForContents(
  opened: Awaited<ReturnType<typeof openStateFlag>>,
  flags: GetWatchFlags,
  types: readonly string[],
  onInterrupt: NonNullable<CliIo['onInterrupt']>,
  io: CliIo,
): Promise<Awaited<ReturnType<typeof openStateFlag>>> {
  const empty = (view: StateView): boolean =>
    view.snapshot.resources.length === 0 &&
    view.snapshot.definitions.length === 0 &&
    view.unreadable.length === 0;
  const defines = (view: StateView): boolean =>
    view.unreadable.length > 0 || types.every((name) => definesType(view, name));
  if (opened === undefined || !empty(opened.view)) return opened;
  io.stderr.write(`cosi: --state ${opened.where}: watching for its first resources\n`);
  let current = opened;
  let waitingForTypes = false;
  const asked = { stop: false };
  let wake = (): void => undefined;
  const unsubscribe = onInterrupt(
    () => {
      asked.stop = true;
      wake();
    },
    { keys: false },
  );
  try {
    for (;;) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, EMPTY_STATE_POLL);
      });
      await current.close();
      if (asked.stop) return undefined;
      const next = await openStateFlag(flags.state, flags.requestTimeout, undefined, {
        keepAlive: WATCH_KEEP_ALIVE,
      });
      if (next === undefined) return undefined;
      current = next;
      if (empty(current.view)) continue;
      if (defines(current.view)) return current;
      if (!waitingForTypes) {
        waitingForTypes = true;
        io.stderr.write(
          `cosi: --state ${current.where}: defines no ${types.join(', ')} yet: watching for ${types.length === 1 ? 'it' : 'them'}\n`,
        );
      }
    }
  } finally {
    unsubscribe();
  }
}

/** Whether the type a name stands for resolves in a state, as the watch will resolve it. */
function definesType(view: StateView, name: string): boolean {
  try {
    resolveQueryTypes({ project: view, snapshot: view.snapshot }, [name]);
    return true;
  } catch (error) {
    if (error instanceof ResourceQueryError) return false;
    throw error;
  }
}

/** `--state`: the kinds asked for, watched on the state from their contents on. */
async function watchState(
  opened: NonNullable<Awaited<ReturnType<typeof openStateFlag>>>,
  asked: WatchQuery,
  showInitial: (groups: readonly ResourceGroup[]) => void,
  writer: ResourceEventWriter,
  onInterrupt: NonNullable<CliIo['onInterrupt']>,
  io: CliIo,
): Promise<ExitCode> {
  const { view } = opened;
  const from: QueriedState = { project: view, snapshot: view.snapshot };
  const types = resolveQueryTypes(from, asked.types);
  // A kind left out as unreadable fails the command that asks for it (said as it was read),
  // with 2: the state cannot be read, as `get` without -w.
  if (view.unreadable.some(({ kind }) => types.includes(kind.type))) return EXIT.usage;
  const abort = new AbortController();
  const unsubscribe = onInterrupt(() => abort.abort(), { keys: false });
  const unwatchConnection = sayConnection(opened, io);
  try {
    // Every namespace: one that gets its first resource of a type later is found, and watched.
    const everywhere = asked.query.namespace === undefined;
    const askedTypes = new Set(types);
    const watch = await watchStateKinds(
      opened.state,
      kindsToWatch(view, types, asked.query.namespace),
      abort.signal,
      everywhere
        ? {
            kinds: async () =>
              (await opened.state.kinds()).filter((kind) => askedTypes.has(kind.type)),
            everyMs: NEW_NAMESPACES_EVERY_MS,
          }
        : undefined,
    );
    if (abort.signal.aborted) return EXIT.ok;
    const changes = new SelectionChanges(asked.query);
    const current: QueriedState = { project: view, snapshot: watch.initial };
    showInitial(changes.start(current));
    watch.follow(({ before, after }) => {
      const change = changes.change(current, before, after);
      if (change) writer.change(change);
    });
    await watch.ended;
    return EXIT.ok;
  } catch (error) {
    io.stderr.write(`cosi: --state ${opened.where}: the watch ended: ${toError(error).message}\n`);
    return EXIT.usage;
  } finally {
    unwatchConnection();
    unsubscribe();
  }
}

/** How often `get -w --state` in every namespace looks for a namespace new to a type, ms. */
const NEW_NAMESPACES_EVERY_MS = 1000;

/**
 * How long the watch's connection to etcd may be down before it is said: a blip (etcd
 * restarting) goes unsaid, as client-go's reflector logs only a watch that stays broken.
 */
export const WATCH_LOST_AFTER = 5_000;

/**
 * gRPC keep-alive pings on the watch's connection, ms apart (answered within half of it): an etcd
 * that stops answering without refusing (hung, or behind a partition that drops packets) breaks
 * the connection, and is said as one that went away; without them the watch waited silently for
 * ever. `get -w` does nothing else, so its event loop never holds an answer back.
 */
const WATCH_KEEP_ALIVE = 10_000;

/**
 * Says on stderr when the connection under the watch has been down for
 * {@link WATCH_LOST_AFTER} (`lost the watch of etcd: ...: reconnecting`), and when it is back
 * after that (`watching again`): the rows alone cannot tell "nothing changes" from "the stream is
 * dead". Returns how to stop.
 */
function sayConnection(
  opened: NonNullable<Awaited<ReturnType<typeof openStateFlag>>>,
  io: CliIo,
): () => void {
  if (opened.etcd === undefined) return () => undefined;
  let timer: NodeJS.Timeout | undefined;
  let said = false;
  const stop = opened.etcd.onWatchConnection(({ connected, error }) => {
    if (!connected) {
      clearTimeout(timer);
      timer = setTimeout(() => {
        said = true;
        io.stderr.write(
          `cosi: --state ${opened.where}: lost the watch of etcd${error === undefined ? '' : `: ${error.message}`}; reconnecting (no change is missed: the watch resumes where it stopped)\n`,
        );
      }, WATCH_LOST_AFTER);
      return;
    }
    clearTimeout(timer);
    if (said) io.stderr.write(`cosi: --state ${opened.where}: watching again: etcd is back\n`);
    said = false;
  });
  return () => {
    clearTimeout(timer);
    stop();
  };
}

/**
 * The kinds that hold the types asked for: in `namespace`, or (all namespaces) in each
 * namespace that holds the type now and in its definition's default one. A namespace that
 * first gets a resource of the type later is found by `watchState` as it comes.
 */
function kindsToWatch(view: StateView, types: readonly string[], namespace?: string): Kind[] {
  const kinds = new Map<string, Kind>();
  const add = (kind: Kind): void => {
    kinds.set(`${kind.namespace}\u0000${kind.type}`, kind);
  };
  if (namespace !== undefined) return types.map((type) => ({ namespace, type }));
  for (const type of types) {
    const defaultNamespace = view.registry.get(type)?.defaultNamespace;
    if (defaultNamespace !== undefined) add({ namespace: defaultNamespace, type });
  }
  // One pass over what the state holds, whatever the number of types asked for.
  const asked = new Set(types);
  const held = [
    ...(asked.has(RESOURCE_DEFINITION_TYPE) ? [view.snapshot.definitions] : []),
    view.snapshot.resources,
  ];
  for (const resource of held.flat()) {
    const { type, namespace: where } = resource.metadata;
    if (asked.has(type)) add({ namespace: where, type });
  }
  return [...kinds.values()];
}

/** Without `--state`: the project converged again on every file change, as `cosi watch`. */
async function watchProject(
  io: CliIo,
  asked: WatchQuery,
  showInitial: (groups: readonly ResourceGroup[]) => void,
  writer: ResourceEventWriter,
  onInterrupt: NonNullable<CliIo['onInterrupt']>,
  flags: GetWatchFlags,
): Promise<ExitCode> {
  if ((flags.file ?? []).includes('-')) {
    throw new CliError(
      'get -w reads files it can watch: -f - (the standard input) is for one-shot commands',
    );
  }
  // Given no -f, the session reads (and watches) the manifests the config names.
  const options = await toRunOptions(flags, io);
  const colors = createColors(useColor(io, flags.color));
  const changes = new SelectionChanges(asked.query);
  let shown = false;
  /** A query the first round could not answer (an unknown type): the command fails with it. */
  let refused: Error | undefined;
  const show = (round: WatchRound): void => {
    io.stderr.write(roundNotes(round, colors));
    if (!round.project || !round.snapshot) return;
    const from = { project: round.project, snapshot: round.snapshot };
    try {
      if (!shown) {
        showInitial(changes.start(from));
        shown = true;
      } else {
        for (const change of changes.round(from)) writer.change(change);
      }
    } catch (error) {
      if (!shown) refused = toError(error);
      else io.stderr.write(`cosi: round ${round.number}: ${toError(error).message}\n`);
    }
  };
  // The first listing waits until the files are watched, so an edit saved once it is printed is
  // seen; rounds until then are held, in order.
  const rounds = holdUntilWatching(io.watchFiles ?? watchWithChokidar, show);
  let session: WatchSession | undefined;
  const asks = { stop: false };
  const unsubscribe = onInterrupt(
    () => {
      asks.stop = true;
      void session?.close();
    },
    { keys: false },
  );
  try {
    session = await startWatchSession({
      ...options,
      watch: rounds.watchFiles,
      onRound: rounds.onRound,
    });
    // An interrupt meanwhile closes the session: a watcher closed early is never ready.
    await rounds.release(session.closed);
    if (refused !== undefined || asks.stop) await session.close();
    if (refused !== undefined) throw refused;
    await session.closed;
  } finally {
    unsubscribe();
  }
  return EXIT.ok;
}

/**
 * What a round says on stderr beside the rows: its findings, a config that does not load, an
 * edit not applied, a run that did not converge. A quiet round says nothing.
 */
function roundNotes(round: WatchRound, colors: ReturnType<typeof createColors>): string {
  let text = renderFindings(round.findings, colors);
  const prefix = `cosi: round ${round.number}`;
  if (round.error !== undefined) {
    text += `${round.error
      .split('\n')
      .map((line) => `${prefix}: ${line}`)
      .join('\n')}\n`;
  } else if (!round.applied) {
    text += `${prefix}: not applied (invalid manifests): the last good state stays\n`;
  } else if (round.report && !round.report.converged) {
    text += `${prefix}: did not converge (${describeReason(round.report.reason)})\n`;
  }
  return text;
}
