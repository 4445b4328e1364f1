/**
 * The RGDs of one load, in two steps: each RGD's type when its document is read (so that its
 * instances resolve, wherever they are), its graph once every kind of the load is known (its
 * templates may use kinds defined later in the tree), a nested RGD's after its child's
 * (`rgd-order.ts`).
 */

import type { ResourceDefinition } from '../../engine/resource/definition.js';
import type { DocumentReport } from '../document-report.js';
import type { ManifestHeader } from '../manifest-document.js';
import type { SchemaCompiler } from '../schema-compiler.js';
import type { CelRules } from '../cel/cel-rule-engine.js';
import type { KubernetesKinds } from '../kubernetes/kubernetes-kinds.js';
import {
  compileResourceGraph,
  isRgdDocument,
  resourceGraphOf,
} from './resource-graph-definition.js';
import { KRO_GROUP, readRgd, type ReadRgd } from './rgd-instance-type.js';
import { isPlainObject } from '../manifest-document.js';
import { compileOrder } from './rgd-order.js';

/** The RGDs of a load, read as their documents come. */
export interface ResourceGraphDefinitions {
  /** Takes the document when it is an RGD (false: it is not one). */
  take(value: Record<string, unknown>, header: ManifestHeader, report: DocumentReport): boolean;
  /** Compiles the graphs of the RGDs taken; returns every RGD document taken, in order. */
  compileGraphs(kinds: KubernetesKinds): { report: DocumentReport; header: ManifestHeader }[];
}

/** The group and kind an RGD's `spec.schema` names, as written (`undefined`: it names none). */
export interface RgdKind {
  readonly group: string;
  readonly kind: string;
}

/**
 * The RGDs of a load; `define` registers an RGD's type (false: it was refused, a duplicate).
 * `refuse` is told of an RGD kro would not build, whose CRD kro therefore never creates: its
 * schema refused (no definition was registered), or its graph (the one `define` registered, to
 * take back), each before the RGDs that nest it are compiled.
 */
export function readResourceGraphDefinitions(
  compiler: SchemaCompiler,
  options: { readonly celRules: () => CelRules; readonly kubernetesVersion?: string },
  define: (
    definition: ResourceDefinition,
    report: DocumentReport,
    sameAs?: (known: ResourceDefinition) => boolean,
  ) => boolean,
  refuse?: (report: DocumentReport, kind: RgdKind, definition?: ResourceDefinition) => void,
): ResourceGraphDefinitions {
  const taken: { report: DocumentReport; header: ManifestHeader; rgd: ReadRgd | undefined }[] = [];
  return {
    take(value, header, report) {
      if (!isRgdDocument(value)) return false;
      let rgd = readRgd(value, header.id, report, compiler, options);
      const source = JSON.stringify(value);
      const sameAs = (known: ResourceDefinition): boolean =>
        JSON.stringify(resourceGraphOf(known)?.source) === source;
      if (rgd === undefined) {
        const kind = rgdKindOf(value);
        if (kind !== undefined) refuse?.(report, kind);
      } else if (!define(rgd.definition, report, sameAs)) rgd = undefined;
      taken.push({ report, header, rgd });
      return true;
    },
    compileGraphs(kinds) {
      const rgds = taken.flatMap(({ rgd }) => (rgd === undefined ? [] : [rgd]));
      for (const rgd of compileOrder(rgds)) {
        if (compileResourceGraph(rgd, kinds, compiler, options)) continue;
        const kind = rgdKindOf(rgd.value);
        if (kind !== undefined) refuse?.(rgd.report, kind, rgd.definition);
      }
      return taken.map(({ report, header }) => ({ report, header }));
    },
  };
}

/** The group (kro's `kro.run` by default) and kind of an RGD's instances, as its schema writes them. */
function rgdKindOf(value: Record<string, unknown>): RgdKind | undefined {
  const spec = isPlainObject(value.spec) ? value.spec : {};
  const schema = isPlainObject(spec.schema) ? spec.schema : {};
  const group = schema.group ?? KRO_GROUP;
  const kind = schema.kind;
  return typeof group === 'string' && typeof kind === 'string' && kind !== ''
    ? { group, kind }
    : undefined;
}
