/**
 * Definitions whose CRD file is not parsed yet (`lazy-crd-definitions.ts`): reading their
 * `schema` or `printColumns` would parse it. What enumerates every definition asks here first,
 * so that an unused `--definitions` CRD stays unparsed (the state stores it without its schema,
 * the check for CEL rules searches its file's text instead).
 */

import type { ResourceDefinition } from '../../engine/resource/definition.js';

/** Unread definitions, and whether their file may hold CEL rules. */
const unread = new WeakMap<ResourceDefinition, boolean>();

/** Marks a definition unread; `mayHaveRules`: its file names `x-kubernetes-validations`. */
export function markUnread(definition: ResourceDefinition, mayHaveRules: boolean): void {
  unread.set(definition, mayHaveRules);
}

/** Marks a definition read: its CRD is parsed. */
export function markRead(definition: ResourceDefinition): void {
  unread.delete(definition);
}

/** Whether a definition's CRD is not parsed yet. */
export function isUnreadDefinition(definition: ResourceDefinition): boolean {
  return unread.has(definition);
}

/**
 * For a definition whose CRD is not parsed yet, whether it may have CEL rules (an over-estimate:
 * its file names them); undefined for any other definition.
 */
export function unreadMayHaveRules(definition: ResourceDefinition): boolean | undefined {
  return unread.get(definition);
}
