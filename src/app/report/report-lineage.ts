import type { Resource } from '../../engine/resource/resource.js';
import { ExplainIndex, type ExplainSource } from '../explain/explain-source.js';
import { lineageGraph } from '../explain/lineage-graph.js';
import type { VersionOrigin } from '../explain/lineage.js';

/**
 * Where a version came from, as numbers: `[]` not in the record, `[0]` a manifest (no place
 * known), `[1, file, line, col]` a manifest at a place, `[2, controller, seq]` a reconcile.
 * `file` and `controller` index the lineage's `files` and `controllers`.
 */
export type EncodedOrigin =
  readonly [] | readonly [0] | readonly [1, number, number, number] | readonly [2, number, number];

/**
 * One version: `[pointer, version, origin, edges]`; `edges` is flat, `[kind, parent, kind,
 * parent, ...]`, `kind` an index into `kinds`, `parent` into `versions`.
 */
export type EncodedVersion = readonly [number, number, EncodedOrigin, readonly number[]];

/**
 * Every resource's lineage as `cosi explain` traces it (where its last version came from,
 * recursively, each edge with its input kind), as one graph of versions, each version once, with
 * repeated strings held once. The page unfolds a resource's tree from its `lineage` index.
 */
export interface ReportLineage {
  /** `[namespace, type, id]` of the resources versions belong to (destroyed ones too). */
  readonly pointers: readonly (readonly [string, string, string])[];
  readonly files: readonly string[];
  readonly controllers: readonly string[];
  readonly kinds: readonly string[];
  readonly versions: readonly EncodedVersion[];
  /** The record dropped its oldest reconciles: a lineage may stop short. */
  readonly truncated: boolean;
}

/**
 * The lineage graph of `resources` (each at its current version, as `cosi explain` starts) from a
 * recorded run, encoded; and each resource's root in it, in the order given.
 */
export function reportLineage(
  source: ExplainSource,
  resources: readonly Resource[],
): { lineage: ReportLineage; roots: readonly number[] } {
  const index = new ExplainIndex(source);
  const graph = lineageGraph(
    index,
    resources.map((r) => {
      const { namespace, type, id, version } = r.metadata;
      return { namespace, type, id, version };
    }),
  );
  const pointers = interner<readonly [string, string, string]>((p) => p.join('\0'));
  const files = interner<string>((f) => f);
  const controllers = interner<string>((c) => c);
  const kinds = interner<string>((k) => k);
  const origin = (o: VersionOrigin): EncodedOrigin => {
    switch (o.kind) {
      case 'unknown':
        return [];
      case 'manifest':
        return o.position ? [1, files.add(o.position.file), o.position.line, o.position.col] : [0];
      case 'reconcile':
        return [2, controllers.add(o.controller), o.seq];
    }
  };
  const versions = graph.vertices.map((v): EncodedVersion => {
    const { namespace, type, id, version } = v.ref;
    return [
      pointers.add([namespace, type, id]),
      version,
      origin(v.origin),
      v.edges.flatMap(([kind, parent]) => [kinds.add(kind), parent]),
    ];
  });
  return {
    lineage: {
      pointers: pointers.values,
      files: files.values,
      controllers: controllers.values,
      kinds: kinds.values,
      versions,
      truncated: source.record.truncated,
    },
    roots: graph.roots,
  };
}

/** Values held once, each with its index. */
function interner<T>(keyOf: (value: T) => string): { add(value: T): number; values: T[] } {
  const indexes = new Map<string, number>();
  const values: T[] = [];
  return {
    values,
    add(value) {
      const key = keyOf(value);
      let at = indexes.get(key);
      if (at === undefined) {
        at = values.length;
        values.push(value);
        indexes.set(key, at);
      }
      return at;
    },
  };
}
