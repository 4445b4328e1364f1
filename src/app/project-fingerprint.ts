import { createHash } from 'node:crypto';
import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import type { ProjectFingerprint } from '../state-etcd/project-fingerprint.js';
import { storedGraph } from './definition-resource.js';

export type { ProjectFingerprint } from '../state-etcd/project-fingerprint.js';

/**
 * The fingerprint of a loaded project: its definitions and the names of its controllers, those
 * its config's `setup` registers too (see `projectControllerNames`). The kind of a kro RGD is
 * hashed with its graph: two processes whose RGDs render differently are two configs.
 */
export function projectFingerprint(
  registry: DefinitionRegistry,
  controllerNames: readonly string[],
  identity: string,
): ProjectFingerprint {
  const hash = (text: string): string => createHash('sha256').update(text).digest('hex');
  const types = registry
    .all()
    .map((definition) => {
      const graph = storedGraph(definition);
      const text = JSON.stringify(graph === undefined ? definition : { definition, graph });
      return `${definition.type}@${hash(text).slice(0, 12)}`;
    })
    .sort();
  const controllers = [...controllerNames].sort();
  return { digest: hash(JSON.stringify({ types, controllers })), types, controllers, identity };
}
