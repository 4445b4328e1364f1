/**
 * Where each definition a load took from the manifests is defined (its name in the document), so
 * that a later load given it (a test project's apply, a scenario's step: the project's types are
 * given to it) can say where the type it defines again already is, not name the config.
 */

import type { ResourceDefinition } from '../engine/resource/definition.js';
import type { SourceLocation } from './finding.js';

const sites = new WeakMap<ResourceDefinition, SourceLocation>();

/** Records where a manifest defines `definition`. */
export function recordDefinitionSite(definition: ResourceDefinition, at: SourceLocation): void {
  sites.set(definition, at);
}

/** Where a manifest defined `definition`; `undefined` for one no manifest defined (the config's). */
export function definitionSite(definition: ResourceDefinition): SourceLocation | undefined {
  return sites.get(definition);
}
