import { compareStrings } from '../../engine/compare-strings.js';
import {
  ALL_NAMESPACES,
  formatPointer,
  pointerKey,
  type Pointer,
} from '../../engine/resource/pointer.js';
import type { RecordedReconcile } from '../../engine/record/run-record.js';
import type { ExplainIndex } from './explain-source.js';
import { graphWhyNot } from './why-not-graph.js';
import type { WhyNotFinding } from './why-not-finding.js';

export type { WhyNotFinding, WhyNotReason } from './why-not-finding.js';

/** One controller that could write the missing resource, and what stopped it. */
export interface WhyNotWriter {
  readonly controller: string;
  readonly findings: readonly WhyNotFinding[];
}

/**
 * For a resource that does not exist: every controller that declares its type as an output, and
 * what stopped each from writing it, from the record: whether the controller ran for the input
 * with the same id, whether a predicate or mapping dropped it, how the reconcile ended, and
 * whether the resource was written and destroyed.
 */
export function whyNot(index: ExplainIndex, pointer: Pointer): WhyNotWriter[] {
  const writers = [...new Set(index.writersOf(pointer.type).map((e) => e.controller))].sort();
  return [
    ...writers.map((controller) => ({
      controller,
      findings: findingsFor(index, controller, pointer),
    })),
    ...refusedWriters(index, pointer, new Set(writers)),
  ];
}

/**
 * The controllers that tried to write the resource without declaring its type as an output:
 * the runtime refused each write (`may not create ...`), and that is why it is missing.
 */
function refusedWriters(
  index: ExplainIndex,
  pointer: Pointer,
  declared: ReadonlySet<string>,
): WhyNotWriter[] {
  const refusal = 'may not ';
  const target = ` ${formatPointer(pointer)}: `;
  const byController = new Map<string, RecordedReconcile[]>();
  for (const r of index.record.reconciles()) {
    if (declared.has(r.controller) || r.outcome?.kind !== 'error') continue;
    const { message } = r.outcome;
    if (!message.includes(refusal) || !message.includes(target)) continue;
    byController.set(r.controller, [...(byController.get(r.controller) ?? []), r]);
  }
  return [...byController]
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([controller, reconciles]) => {
      const last = reconciles.at(-1) as RecordedReconcile;
      const message = last.outcome?.kind === 'error' ? last.outcome.message : '';
      return {
        controller,
        findings: [
          {
            reason: 'refused',
            message: `it tried to write ${formatPointer(pointer)} ${reconciles.length} time(s) and was refused: ${message}`,
            reconciles: reconciles.map((r) => r.seq),
          },
        ],
      };
    });
}

function findingsFor(index: ExplainIndex, controller: string, pointer: Pointer): WhyNotFinding[] {
  const graph = index.source.resourceGraph?.(controller);
  if (graph !== undefined) return graphWhyNot(index, graph, controller, pointer);
  const mine = index.record.reconciles().filter((r) => r.controller === controller);
  // Written, then destroyed: the last write to it was a destroy (or a teardown).
  const writes = index.record
    .writesTo(pointer)
    .filter((w) => w.reconcile.controller === controller);
  const last = writes.at(-1);
  if (last && (last.write.op === 'destroy' || last.write.op === 'teardown')) {
    const created = writes[0] as (typeof writes)[number];
    return [
      {
        reason: 'torn-down',
        message: `${controller} wrote ${formatPointer(pointer)} (reconcile #${created.reconcile.seq}) and ${last.write.op === 'destroy' ? 'destroyed' : 'tore it down'} in reconcile #${last.reconcile.seq}`,
        reconciles: [created.reconcile.seq, last.reconcile.seq],
      },
    ];
  }
  const findings: WhyNotFinding[] = [];
  const inputs = index.inputsOfController(controller);
  // The inputs whose resource with the same id would lead to the output.
  const candidates = inputs
    .filter((e) => e.kind !== 'destroyReady' && e.kind !== 'mappedDestroyReady')
    .map((e) => ({
      edge: e,
      pointer: {
        // An input of every namespace has the resource's namesake in the resource's namespace.
        namespace:
          e.namespace === undefined || e.namespace === ALL_NAMESPACES
            ? pointer.namespace
            : e.namespace,
        type: e.type,
        id: e.id ?? pointer.id,
      },
    }))
    .filter((c) => c.edge.type !== pointer.type)
    .filter((c, i, all) => all.findIndex((o) => sameCandidate(o, c)) === i);
  for (const { edge, pointer: input } of candidates) {
    const inputKey = pointerKey(input);
    const position = index.position(input);
    const at = position ? { position } : {};
    if (!index.resource(input) && !mine.some((r) => touches(r, inputKey))) {
      findings.push({
        reason: 'input-missing',
        message: `its ${edge.kind} input ${formatPointer(input)} does not exist${input.namespace === pointer.namespace ? '' : ` (it reads namespace ${input.namespace} only)`}`,
        input,
        reconciles: [],
      });
      continue;
    }
    const maps = mine.filter((r) => isMapping(r) && r.item && pointerKey(r.item) === inputKey);
    const ran = mine.filter((r) => !isMapping(r) && touches(r, inputKey));
    if (ran.length === 0 && maps.length > 0 && maps.every((m) => (m.mapped ?? []).length === 0)) {
      const routed = maps.every((m) => m.job === 'route');
      findings.push({
        reason: routed ? 'filtered' : 'mapped-to-nothing',
        message: routed
          ? `its predicates or handlers queued nothing for ${formatPointer(input)}`
          : `its mapInput returned nothing for ${formatPointer(input)}`,
        input,
        ...at,
        reconciles: maps.map((m) => m.seq),
      });
      continue;
    }
    if (ran.length === 0) {
      findings.push({
        reason: 'not-run',
        message: `it never reconciled ${formatPointer(input)}`,
        input,
        ...at,
        reconciles: [],
      });
      continue;
    }
    const lastRun = ran.at(-1) as RecordedReconcile;
    const outcome = lastRun.outcome;
    if (outcome?.kind === 'error') {
      findings.push({
        reason:
          outcome.terminal !== true &&
          (outcome.gaveUp === true || givenUp(index, controller, input))
            ? 'given-up'
            : 'error',
        message:
          outcome.gaveUp === true
            ? `its reconcile of ${formatPointer(input)} failed ${ran.filter((r) => r.outcome?.kind === 'error').length} times and was given up: ${outcome.message}`
            : `its reconcile of ${formatPointer(input)} failed${outcome.terminal === true ? ' (terminal, not retried)' : ''}: ${outcome.message}`,
        input,
        ...at,
        reconciles: ran.map((r) => r.seq),
      });
      continue;
    }
    findings.push({
      reason: 'no-write',
      message: `it reconciled ${formatPointer(input)} ${ran.length} time(s)${outcome?.kind === 'skip' ? ' (skipped)' : ''} and wrote no ${pointer.type} ${JSON.stringify(pointer.id)}`,
      input,
      ...at,
      reconciles: ran.map((r) => r.seq),
    });
  }
  if (candidates.length === 0) {
    findings.push({
      reason: mine.length === 0 ? 'not-run' : 'no-write',
      message:
        mine.length === 0
          ? 'it never ran'
          : `it ran ${mine.length} time(s) and never wrote ${formatPointer(pointer)}`,
      reconciles: mine.map((r) => r.seq),
    });
  }
  return findings;
}

const sameCandidate = (
  a: { edge: { kind: string }; pointer: Pointer },
  b: { edge: { kind: string }; pointer: Pointer },
): boolean => a.edge.kind === b.edge.kind && pointerKey(a.pointer) === pointerKey(b.pointer);

const isMapping = (r: RecordedReconcile): boolean => r.job === 'map' || r.job === 'route';

/** Whether a reconcile was of the item `key`, or read it. */
function touches(r: RecordedReconcile, key: string): boolean {
  return (
    (r.item !== undefined && pointerKey(r.item) === key) ||
    r.reads.some((read) => pointerKey(read) === key)
  );
}

/** The run's report says the controller gave the item up. */
function givenUp(index: ExplainIndex, controller: string, input: Pointer): boolean {
  const report = index.source.report?.controllers.find((c) => c.name === controller);
  const key = pointerKey(input);
  return (
    report?.condition === 'failed' && report.failingItems.some((i) => pointerKey(i.pointer) === key)
  );
}
