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
  readRgd,
  resourceGraphOf,
  type ReadRgd,
} from './resource-graph-definition.js';
import { compileOrder } from './rgd-order.js';

/** The RGDs of a load, read as their documents come. */
export interface ResourceGraphDefinitions {
  /** Takes the document when it is an RGD (false: it is not one). */
  take(value: Record<string, unknown>, header: ManifestHeader, report: DocumentReport): boolean;
  /** Compiles the graphs of the RGDs taken; returns every RGD document taken, in order. */
  compileGraphs(kinds: KubernetesKinds): { report: DocumentReport; header: ManifestHeader }[];
}

/**
 * The RGDs of a load; `define` registers an RGD's type (false: it was refused, a duplicate).
 */
export function readResourceGraphDefinitions(
  compiler: SchemaCompiler,
  options: { readonly celRules: () => CelRules; readonly kubernetesVersion?: string },
  define: (
    definition: ResourceDefinition,
    report: DocumentReport,
    sameAs?: (known: ResourceDefinition) => boolean,
  ) => boolean,
): ResourceGraphDefinitions {
  const taken: { report: DocumentReport; header: ManifestHeader; rgd: ReadRgd | undefined }[] = [];
  return {
    take(value, header, report) {
      if (!isRgdDocument(value)) return false;
      let rgd = readRgd(value, header.id, report, compiler, options);
      const source = JSON.stringify(value);
      const sameAs = (known: ResourceDefinition): boolean =>
        JSON.stringify(resourceGraphOf(known)?.source) === source;
      if (rgd !== undefined && !define(rgd.definition, report, sameAs)) rgd = undefined;
      taken.push({ report, header, rgd });
      return true;
    },
    compileGraphs(kinds) {
      const rgds = taken.flatMap(({ rgd }) => (rgd === undefined ? [] : [rgd]));
      for (const rgd of compileOrder(rgds)) compileResourceGraph(rgd, kinds, compiler, options);
      return taken.map(({ report, header }) => ({ report, header }));
    },
  };
}
