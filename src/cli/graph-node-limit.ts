import { CliError, EXIT } from './exit-codes.js';
import { SVG_NODE_LIMIT } from './render/graph/drawn-nodes.js';

/** `graph -o svg` refuses a graph of more nodes than this unless `--max-nodes` says otherwise. */
export const DEFAULT_MAX_NODES = SVG_NODE_LIMIT;

/** `--max-nodes N`: a whole number, 0 for no limit; absent: the default. */
export function parseMaxNodes(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_NODES;
  const limit = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(limit)) {
    throw new CliError(
      `--max-nodes: expected a whole number of nodes (0: no limit), got ${JSON.stringify(value)}`,
    );
  }
  return limit === 0 ? Number.POSITIVE_INFINITY : limit;
}

/** Refuses (exit 2, one line that says how to cut it) a graph too large to lay out as SVG. */
export function checkNodeLimit(nodes: number, limit: number): void {
  if (nodes <= limit) return;
  throw new CliError(
    `graph -o svg: ${nodes.toLocaleString('en-US')} nodes, more than --max-nodes ${limit.toLocaleString('en-US')} (Graphviz takes minutes for a few thousand): ` +
      'draw part of it with --focus TYPE/ID --depth N (or -t TYPE, -c NAME), write -o dot, or raise --max-nodes (0: no limit)',
    EXIT.usage,
  );
}
