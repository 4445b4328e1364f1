import { createHash } from 'node:crypto';
import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import type { LoadedConfig } from '../loaders/load-config.js';
import type { ProjectFingerprint } from '../state-etcd/project-fingerprint.js';

export type { ProjectFingerprint } from '../state-etcd/project-fingerprint.js';

/** The fingerprint of a loaded project. */
export function projectFingerprint(
  registry: DefinitionRegistry,
  config: LoadedConfig | undefined,
  identity: string,
): ProjectFingerprint {
  const hash = (text: string): string => createHash('sha256').update(text).digest('hex');
  const types = registry
    .all()
    .map((definition) => `${definition.type}@${hash(JSON.stringify(definition)).slice(0, 12)}`)
    .sort();
  const controllers = (config?.config.controllers ?? []).map((c) => c.name).sort();
  return { digest: hash(JSON.stringify({ types, controllers })), types, controllers, identity };
}
