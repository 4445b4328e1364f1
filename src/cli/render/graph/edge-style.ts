import type { InputKind, OutputKind } from '../../../engine/runtime/controller.js';

/** How an edge is drawn, in the vocabulary of `talosctl inspect dependencies`. */
export type EdgeLine = 'bold' | 'solid' | 'dotted' | 'dashed';

/** Whether an input only signals teardown (`destroyReady`, `mappedDestroyReady`): no data flows. */
export function isDestroyReadyKind(kind: InputKind | OutputKind): boolean {
  return kind === 'destroyReady' || kind === 'mappedDestroyReady';
}

/**
 * The line of an edge: exclusive outputs bold, shared outputs solid, strong inputs solid, weak
 * inputs dotted, as talosctl draws them. Queue controllers' inputs follow their closest relative
 * (primary as strong, mapped as weak). talosctl omits destroyReady inputs; cosi draws them
 * dashed, so that every declared dependency is visible.
 */
export function edgeLine(kind: InputKind | OutputKind): EdgeLine {
  switch (kind) {
    case 'exclusive':
      return 'bold';
    case 'shared':
    case 'strong':
    case 'primary':
      return 'solid';
    case 'weak':
    case 'mapped':
      return 'dotted';
    case 'destroyReady':
    case 'mappedDestroyReady':
      return 'dashed';
  }
}

/** One line per edge style, for the legends of the drawn formats. */
export const EDGE_LEGEND: readonly string[] = [
  'bold: exclusive output',
  'solid: shared output, strong or primary input',
  'dotted: weak or mapped input',
  'dashed: destroyReady or mappedDestroyReady input',
  'label: the one id an input is pinned to',
];

/** The legend line of an edge with two heads, for drawings that have one. */
export const STATUS_LEGEND = 'two heads, "status": reads the instances and writes their status';
