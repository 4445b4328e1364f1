/**
 * A kro ResourceGraphDefinition as kro's controller leaves it once it serves the RGD's kind: the
 * manifest as applied, with kro's finalizer, and the status the controller writes (see kro's
 * `pkg/controller/resourcegraphdefinition`). cosi loads an RGD as its kind and that kind's
 * controller, so an RGD among the manifests is one kro accepted: a refused one (a bad schema, an
 * expression that does not compile, a cycle) stops the load with its finding instead.
 */
import type { ResourceGraph } from '../../controllers/compiled-resource-graph.js';
import { isPlainObject } from '../manifest-document.js';

/** The finalizer kro adds to an RGD it manages. */
export const RGD_FINALIZER = 'kro.run/finalizer';

/**
 * The RGD's object: `metadata.finalizers` and `generation` as the API server and kro set them,
 * and `status` with `state: Active`, `topologicalOrder` (the resources' ids in the order kro
 * creates them), `resources` (each id that depends on others, with them) and the conditions
 * GraphRevisionsResolved, GraphAccepted, KindReady, ControllerReady and Ready, all `True` at
 * generation 1, `lastTransitionTime` the given time (an RFC 3339 string).
 */
export function rgdAsWritten(
  graph: ResourceGraph,
  lastTransitionTime: string,
): Record<string, unknown> {
  const source = isPlainObject(graph.source) ? graph.source : {};
  const metadata = isPlainObject(source.metadata) ? source.metadata : {};
  const finalizers = Array.isArray(metadata.finalizers) ? (metadata.finalizers as unknown[]) : [];
  const generation = 1;
  const condition = (type: string, reason: string, message: string): Record<string, unknown> => ({
    type,
    status: 'True',
    reason,
    message,
    observedGeneration: generation,
    lastTransitionTime,
  });
  const kind = graph.instanceKind?.kind ?? graph.instanceType;
  return {
    ...source,
    metadata: {
      ...metadata,
      name: graph.name,
      generation,
      finalizers: finalizers.includes(RGD_FINALIZER) ? finalizers : [...finalizers, RGD_FINALIZER],
    },
    status: {
      conditions: [
        condition('GraphRevisionsResolved', 'Resolved', 'revision 1 compiled and active'),
        condition('GraphAccepted', 'Valid', 'resource graph and schema are valid'),
        condition('KindReady', 'Ready', `kind ${kind} has been accepted and ready`),
        condition('ControllerReady', 'Running', 'controller is running'),
        condition('Ready', 'Ready', ''),
      ],
      lastIssuedRevision: 1,
      resources: graph.nodes
        .filter((node) => node.dependencies.length > 0)
        .map((node) => ({ id: node.id, dependencies: node.dependencies.map((id) => ({ id })) })),
      state: 'Active',
      topologicalOrder: graph.nodes.map((node) => node.id),
    },
  };
}
