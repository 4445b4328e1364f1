/**
 * The CEL side of the loaders, loaded on demand. CEL (`@bufbuild/cel` and the Kubernetes
 * libraries on it) is the largest part of the loaders' code, about 20 MB of a process: a project
 * whose definitions have no `x-kubernetes-validations` never loads it. The async readers load it
 * first ({@link prepareCelRules}) when what they are about to load may have rules; the loaders'
 * synchronous code then takes it from here ({@link celRules}).
 */
import { createRequire } from 'node:module';
import type { ResourceDefinition } from '../../engine/resource/definition.js';
import type { CelRuleEngine } from './cel-rule-engine.js';
import { isSchemaNode, VALIDATIONS_KEYWORD } from './schema-node.js';

export type { CelRuleEngine } from './cel-rule-engine.js';

let engine: CelRuleEngine | undefined;

/** Whether the CEL rule engine is loaded in this process. */
export function isCelRulesLoaded(): boolean {
  return engine !== undefined;
}

/** Makes `loaded` the engine of this process (the statically linked one of `loadManifests`). */
export function installCelRules(loaded: CelRuleEngine): void {
  engine ??= loaded;
}

/** Loads the CEL rule engine (once per process). */
export async function loadCelRules(): Promise<CelRuleEngine> {
  if (engine === undefined) {
    const { celRuleEngine } = await import('./cel-rule-engine.js');
    installCelRules(celRuleEngine);
  }
  return engine as CelRuleEngine;
}

/**
 * The CEL rule engine, for a schema that has rules. Loaded synchronously (`require` of an ES
 * module, Node.js 20.19 and later) in the one case the readers cannot foresee: a rules keyword
 * spelt with escapes in a quoted YAML key.
 */
export function celRules(): CelRuleEngine {
  if (engine === undefined) {
    const { celRuleEngine } = createRequire(import.meta.url)('./cel-rule-engine.js') as {
      celRuleEngine: CelRuleEngine;
    };
    installCelRules(celRuleEngine);
  }
  return engine as CelRuleEngine;
}

const withRules = new WeakMap<object, boolean>();

/**
 * Whether a schema holds `x-kubernetes-validations` at a node the rules are compiled from (the
 * root, `properties`, `items`, `additionalProperties`, as `compileRules` walks it). Without,
 * there is nothing to compile or evaluate.
 */
export function schemaHasRules(schema: object): boolean {
  let has = withRules.get(schema);
  if (has === undefined) {
    has = walkForRules(schema, new Set());
    withRules.set(schema, has);
  }
  return has;
}

function walkForRules(node: unknown, seen: Set<object>): boolean {
  if (!isSchemaNode(node) || seen.has(node)) return false;
  seen.add(node);
  if (node[VALIDATIONS_KEYWORD] !== undefined) return true;
  if (isSchemaNode(node.properties)) {
    for (const child of Object.values(node.properties)) if (walkForRules(child, seen)) return true;
  }
  // Rules below a junctor are never run, but are looked for: the compiler refuses them.
  for (const junctor of ['allOf', 'anyOf', 'oneOf', 'not']) {
    const sub = node[junctor];
    for (const child of Array.isArray(sub) ? (sub as unknown[]) : [sub]) {
      if (walkForRules(child, seen)) return true;
    }
  }
  return walkForRules(node.items, seen) || walkForRules(node.additionalProperties, seen);
}

/**
 * Loads the CEL rule engine before a load that may need it: when a given definition's schema has
 * rules, or a file about to be parsed names the rules keyword (a definition in the manifests may
 * have rules). Cheap when neither: one substring search per file.
 */
export async function prepareCelRules(
  texts: Iterable<string>,
  definitions: readonly ResourceDefinition[] = [],
): Promise<void> {
  if (engine !== undefined) return;
  let needed = definitions.some((d) => d.schema !== undefined && schemaHasRules(d.schema));
  if (!needed) {
    for (const text of texts) {
      if (text.includes(VALIDATIONS_KEYWORD)) {
        needed = true;
        break;
      }
    }
  }
  if (needed) await loadCelRules();
}
