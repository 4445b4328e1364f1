import { compareStrings } from '../compare-strings.js';
import { describeThrown } from '../thrown-value.js';
import { backoffProblem } from './backoff.js';
import { ALL_NAMESPACES, kindKey } from '../resource/pointer.js';
import {
  inputsOf,
  isQController,
  outputsOf,
  type AnyController,
  type Input,
  type InputKind,
  type OutputKind,
} from './controller.js';

/** One edge of the graph: an input (resource -> controller) or an output (controller -> resource). */
export interface DependencyEdge {
  readonly controller: string;
  /** Inputs only: outputs are declared by type, for every namespace. */
  readonly namespace?: string;
  readonly type: string;
  readonly id?: string;
  readonly kind: InputKind | OutputKind;
}

/** The controller graph as data, for `cosi graph` and for tests. Everything sorted. */
export interface DependencyGraph {
  readonly controllers: readonly {
    readonly name: string;
    readonly kind: 'controller' | 'qcontroller';
  }[];
  readonly types: readonly string[];
  readonly edges: readonly DependencyEdge[];
}

const CONTROLLER_INPUT_KINDS = new Set<InputKind>(['weak', 'strong', 'destroyReady']);
/** The input kinds of a queue controller. */
export const Q_INPUT_KINDS: ReadonlySet<InputKind> = new Set<InputKind>([
  'primary',
  'mapped',
  'mappedDestroyReady',
]);

const inputKey = (i: Input): string => `${kindKey(i)}\0${i.id ?? ''}`;
const describeInput = (i: Input): string =>
  `${i.namespace}/${i.type}${i.id === undefined ? '' : `/${i.id}`}`;

/**
 * COSI's dependency database: who writes which type (one exclusive writer, or any number of shared
 * ones, never both), who reads which kind, and the checks that keep it consistent.
 */
/**
 * What keeps `controller` from being one of either kind, for plain JavaScript (TypeScript checks
 * this): a queue controller has `settings` with input and output lists and a `reconcile`; a
 * whole-world one has input and output lists and a `run`.
 */
function shapeProblem(controller: AnyController): string | undefined {
  const c = controller as unknown as Record<string, unknown>;
  if ('reconcile' in c) {
    if (typeof c.reconcile !== 'function') return 'has a reconcile that is not a function';
    const settings: unknown = c.settings;
    if (typeof settings !== 'object' || settings === null) {
      return 'is a queue controller (it has reconcile) without settings ({ inputs, outputs })';
    }
    const { inputs, outputs } = settings as Record<string, unknown>;
    if (!Array.isArray(inputs)) return 'has settings.inputs that is not a list';
    if (!Array.isArray(outputs)) return 'has settings.outputs that is not a list';
    return undefined;
  }
  if (typeof c.run !== 'function') {
    return 'has neither run (a controller) nor reconcile (a queue controller)';
  }
  if (!Array.isArray(c.inputs)) return 'has inputs that is not a list';
  if (!Array.isArray(c.outputs)) return 'has outputs that is not a list';
  return undefined;
}

export class DependencyDatabase {
  readonly #controllers = new Map<string, AnyController>();
  readonly #exclusive = new Map<string, string>();
  readonly #shared = new Map<string, Set<string>>();
  readonly #inputs = new Map<string, readonly Input[]>();

  /**
   * Every problem that registering `batch` would cause, against what is registered and within the
   * batch itself. Empty means the batch may be registered. `pending` are taken as registered
   * before it (a manager's controllers waiting for their group to start); their own problems are
   * not reported, and what they cannot claim they do not hold.
   */
  validate(batch: readonly AnyController[], pending: readonly AnyController[] = []): string[] {
    const problems: string[] = [];
    const names = new Set(this.#controllers.keys());
    const exclusive = new Map(this.#exclusive);
    const shared = new Map([...this.#shared].map(([t, s]) => [t, new Set(s)]));
    for (const controller of pending) {
      names.add(controller.name);
      for (const output of outputsOf(controller)) {
        const sharers = shared.get(output.type);
        if (output.kind === 'exclusive') {
          if (!exclusive.has(output.type) && !(sharers && sharers.size > 0)) {
            exclusive.set(output.type, controller.name);
          }
        } else if ((output.kind as string) === 'shared' && !exclusive.has(output.type)) {
          shared.set(output.type, (sharers ?? new Set()).add(controller.name));
        }
      }
    }
    for (const controller of batch) {
      // Plain JavaScript can hand `register([a, b])` an array, which has no name either.
      if (Array.isArray(controller)) {
        problems.push(
          'a list of controllers was given as one controller: register takes them as arguments, register(...controllers)',
        );
        continue;
      }
      // Plain JavaScript may hand it anything.
      if (typeof (controller as unknown) !== 'object' || (controller as unknown) === null) {
        problems.push(`expected a controller (an object), got ${describeThrown(controller)}`);
        continue;
      }
      const name = controller.name;
      if (typeof name !== 'string' || name.length === 0) {
        problems.push('a controller has no name');
        continue;
      }
      const shape = shapeProblem(controller);
      if (shape !== undefined) {
        problems.push(`controller ${JSON.stringify(name)} ${shape}`);
        continue;
      }
      if (names.has(name))
        problems.push(`controller ${JSON.stringify(name)} is already registered`);
      names.add(name);
      const allowed = isQController(controller) ? Q_INPUT_KINDS : CONTROLLER_INPUT_KINDS;
      problems.push(...validateInputs(name, inputsOf(controller), allowed));
      if (isQController(controller)) {
        const problem = validateConcurrency(name, controller.settings.concurrency);
        if (problem !== undefined) problems.push(problem);
        const backoff = controller.settings.backoff;
        const backoffWrong =
          backoff === undefined
            ? undefined
            : backoffProblem(backoff, `controller ${JSON.stringify(name)}: backoff`);
        if (backoffWrong !== undefined) problems.push(backoffWrong);
      }
      const seenOutputs = new Set<string>();
      for (const output of outputsOf(controller)) {
        if (seenOutputs.has(output.type)) {
          problems.push(`controller ${JSON.stringify(name)} declares output ${output.type} twice`);
          continue;
        }
        seenOutputs.add(output.type);
        const owner = exclusive.get(output.type);
        const sharers = shared.get(output.type);
        // Declarations also come from plain JavaScript, so the kind is checked, not trusted.
        if (output.kind === 'exclusive') {
          if (owner !== undefined) {
            problems.push(
              `controllers ${JSON.stringify(owner)} and ${JSON.stringify(name)} both claim exclusive output ${output.type}`,
            );
          } else if (sharers && sharers.size > 0) {
            problems.push(
              `controller ${JSON.stringify(name)} claims exclusive output ${output.type}, already a shared output of ${[...sharers].map((s) => JSON.stringify(s)).join(', ')}`,
            );
          } else {
            exclusive.set(output.type, name);
          }
        } else if ((output.kind as string) === 'shared') {
          if (owner !== undefined) {
            problems.push(
              `controller ${JSON.stringify(name)} declares shared output ${output.type}, which ${JSON.stringify(owner)} writes exclusively`,
            );
          } else {
            shared.set(output.type, (sharers ?? new Set()).add(name));
          }
        } else {
          problems.push(
            `controller ${JSON.stringify(name)} has output ${output.type} of unknown kind ${JSON.stringify(output.kind)}`,
          );
        }
      }
    }
    return problems;
  }

  /** Adds a validated controller. */
  add(controller: AnyController): void {
    this.#controllers.set(controller.name, controller);
    for (const output of outputsOf(controller)) {
      if (output.kind === 'exclusive') this.#exclusive.set(output.type, controller.name);
      else {
        let sharers = this.#shared.get(output.type);
        if (!sharers) this.#shared.set(output.type, (sharers = new Set()));
        sharers.add(controller.name);
      }
    }
    this.#inputs.set(controller.name, [...inputsOf(controller)]);
  }

  /** Replaces a controller's inputs (after `updateInputs`); returns the problems, if any. */
  replaceInputs(
    name: string,
    inputs: readonly Input[],
    allowed: ReadonlySet<InputKind> = CONTROLLER_INPUT_KINDS,
  ): string[] {
    const problems = validateInputs(name, inputs, allowed);
    if (problems.length === 0) this.#inputs.set(name, [...inputs]);
    return problems;
  }

  inputs(name: string): readonly Input[] {
    return this.#inputs.get(name) ?? [];
  }

  /** The graph as data, sorted by controller, then type, then kind. */
  export(): DependencyGraph {
    const edges: DependencyEdge[] = [];
    const types = new Set<string>();
    const controllers = [...this.#controllers.values()]
      .map((c) => ({
        name: c.name,
        kind: isQController(c) ? ('qcontroller' as const) : ('controller' as const),
      }))
      .sort((a, b) => compareStrings(a.name, b.name));
    for (const { name } of controllers) {
      for (const input of this.inputs(name)) {
        types.add(input.type);
        edges.push({
          controller: name,
          namespace: input.namespace,
          type: input.type,
          ...(input.id === undefined ? {} : { id: input.id }),
          kind: input.kind,
        });
      }
      for (const output of outputsOf(this.#controllers.get(name) as AnyController)) {
        types.add(output.type);
        edges.push({ controller: name, type: output.type, kind: output.kind });
      }
    }
    edges.sort(
      (a, b) =>
        compareStrings(a.controller, b.controller) ||
        compareStrings(a.type, b.type) ||
        compareStrings(a.namespace ?? '', b.namespace ?? '') ||
        compareStrings(a.id ?? '', b.id ?? '') ||
        compareStrings(a.kind, b.kind),
    );
    return { controllers, types: [...types].sort(compareStrings), edges };
  }
}

function validateInputs(
  name: string,
  inputs: readonly Input[],
  allowed: ReadonlySet<InputKind>,
): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const input of inputs) {
    if (!allowed.has(input.kind)) {
      problems.push(
        `controller ${JSON.stringify(name)} has input ${describeInput(input)} of kind ${JSON.stringify(input.kind)}, expected one of ${[...allowed].join(', ')}`,
      );
    }
    if (input.namespace === ALL_NAMESPACES && input.id !== undefined) {
      problems.push(
        `controller ${JSON.stringify(name)} has input ${describeInput(input)}: an input of one resource names its namespace, not every namespace (${ALL_NAMESPACES})`,
      );
    }
    const key = inputKey(input);
    if (seen.has(key))
      problems.push(
        `controller ${JSON.stringify(name)} declares input ${describeInput(input)} twice`,
      );
    seen.add(key);
  }
  return problems;
}

/**
 * A queue controller's worker count is a positive whole number, or unset (1). COSI refuses 0 at
 * registration (`invalid concurrency`) rather than running a controller that can never reconcile,
 * and so does cosi, instead of quietly rounding it to something else.
 */
function validateConcurrency(
  name: string,
  concurrency: number | 'writesInFlight' | undefined,
): string | undefined {
  if (concurrency === undefined || concurrency === 'writesInFlight') return undefined;
  if (Number.isInteger(concurrency) && concurrency >= 1) return undefined;
  return `controller ${JSON.stringify(name)}: invalid concurrency ${String(concurrency)}: expected a whole number of at least 1 or 'writesInFlight'`;
}
