import { escapeControl } from '../escape-control.js';
import type { GraphView } from './graph-view.js';

/**
 * The view with every name in it (controllers, types, ids, namespaces, owners) escaped to one
 * line, for the text and tree formats, which print one entry per line: a controller named
 * `A\nB` printed raw split over two lines that read as two entries. The view is plain data,
 * so every string in it is escaped alike.
 */
export function oneLineView(view: GraphView): GraphView {
  return escapeStrings(view) as GraphView;
}

function escapeStrings(value: unknown): unknown {
  if (typeof value === 'string') return escapeControl(value);
  if (Array.isArray(value)) return value.map(escapeStrings);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeStrings(v)]));
  }
  return value;
}
