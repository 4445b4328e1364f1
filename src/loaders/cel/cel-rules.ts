/**
 * The CEL side of the loaders, loaded on demand. CEL (`@bufbuild/cel` and the Kubernetes
 * libraries on it) is the largest part of the loaders' code, about 20 MB of a process: a project
 * whose definitions have no `x-kubernetes-validations` never loads it. The async readers load it
 * first ({@link prepareCelRules}) when what they are about to load may have rules; the loaders'
 * synchronous code then takes it from here ({@link lazyCelRules}).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { packageFile } from '../package-location.js';
import type { ResourceDefinition } from '../../engine/resource/definition.js';
import type { CelRuleEngine, CelRules } from './cel-rule-engine.js';
import { schemaHasRules, VALIDATIONS_KEYWORD } from '../schema-node.js';
import { isCheckPending } from '../kubernetes/deferred-check.js';
import { unreadMayHaveRules } from '../kubernetes/unread-definitions.js';

export type { CelRuleEngine, CelRules } from './cel-rule-engine.js';

/**
 * The engine module once imported: a memo of the import, as Node's own module cache, so that the
 * synchronous {@link requireCelRuleEngine} finds what an async read loaded. Set only here, by
 * loading; there is nothing to configure: every caller gets the same engine.
 */
let imported: CelRuleEngine | undefined;

/** Loads the CEL rule engine (imported once per process). */
export async function loadCelRuleEngine(): Promise<CelRuleEngine> {
  if (imported === undefined) {
    const { celRuleEngine } = await import('./cel-rule-engine.js');
    imported = celRuleEngine;
  }
  return imported;
}

/** Whether this process has loaded the CEL rule engine (a load with no rules to compile never does). */
export function isCelRuleEngineLoaded(): boolean {
  return imported !== undefined;
}

/**
 * The CEL rule engine, for a schema that has rules: the one already loaded, else loaded
 * synchronously (`require` of an ES module, Node.js 20.19 and later) in the one case the readers
 * cannot foresee: a rules keyword spelt with escapes in a quoted YAML key.
 */
export function requireCelRuleEngine(): CelRuleEngine {
  if (imported === undefined) {
    const { celRuleEngine } = createRequire(import.meta.url)(
      fileURLToPath(packageFile('dist/loaders/cel/cel-rule-engine.js')),
    ) as {
      celRuleEngine: CelRuleEngine;
    };
    imported = celRuleEngine;
  }
  return imported;
}

/**
 * The CEL rules of one load, in the environment of its Kubernetes version (the newest stable
 * when `undefined`), made on the first call: a load asks only when a schema has rules, so a load
 * without any never loads CEL. `engine` gives the engine: a linked one (`loadManifests`), or by
 * default the loaded one ({@link requireCelRuleEngine}).
 */
export function lazyCelRules(
  kubernetesVersion: string | undefined,
  engine: () => CelRuleEngine = requireCelRuleEngine,
): () => CelRules {
  let rules: CelRules | undefined;
  return () => (rules ??= engine().rulesFor(kubernetesVersion));
}

/**
 * Loads the CEL rule engine before a load that may need it: when `needed` says so (the caller
 * knows of rules this cannot see: kro RGDs' outputs, see `prepare-cel.ts`), a given definition's
 * schema has rules, or a file about to be parsed names the rules keyword (a definition in the
 * manifests may have rules). A definition whose check is put off until a document uses it (an
 * unused CRD of `--definitions`) counts only when a file names its kind: then its rules compile
 * during the load. Cheap when none: substring searches per file.
 */
export async function prepareCelRules(
  texts: Iterable<string>,
  definitions: readonly ResourceDefinition[] = [],
  needed = false,
): Promise<void> {
  if (imported !== undefined) return;
  const list = [...texts];
  needed ||= definitions.some(
    // The kind first, and an unparsed CRD's file is only searched: an unused `--definitions`
    // CRD is not parsed here.
    (d) =>
      (!isCheckPending(d) || namesKind(list, d)) &&
      (unreadMayHaveRules(d) ?? (d.schema !== undefined && schemaHasRules(d.schema))),
  );
  needed ||= list.some(
    (text) =>
      text.includes(VALIDATIONS_KEYWORD) ||
      // Admission policies' and webhooks' expressions (`admission-expressions.ts`).
      text.includes('AdmissionPolicy') ||
      text.includes('matchConditions') ||
      // A Gatekeeper ConstraintTemplate's CEL (`gatekeeper-constraint-template.ts`), a Kyverno
      // CEL policy's (`admission-expressions.ts`).
      text.includes('K8sNativeValidation') ||
      (text.includes('kyverno.io') && text.includes('expression')),
  );
  if (needed) await loadCelRuleEngine();
}

/**
 * Whether a file may hold a document of `definition`'s kind (a cheap over-estimate): the kind as
 * a word, as the value of a `kind:` key at the start of a line (a block document's own kind, not
 * an `issuerRef`'s in flow style), unless the file may hold documents whose kind is not there: a
 * flow or JSON document, a `kind: List`. A miss costs only time: the rules' first use then loads
 * CEL synchronously ({@link requireCelRuleEngine}).
 */
function namesKind(texts: readonly string[], definition: ResourceDefinition): boolean {
  const kind = definition.kubernetes?.kind ?? definition.type;
  const escaped = kind.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // The kind as a word: `Issuer` is not named by `ClusterIssuer`.
  const word = new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`);
  const topLevel = new RegExp(`^kind:[ \\t]*(['"]?)${escaped}\\1[ \\t]*(?:#.*)?\\r?$`, 'm');
  return texts.some(
    (text) => text.includes(kind) && word.test(text) && (topLevel.test(text) || mayHideKinds(text)),
  );
}

/** Whether a file may hold a document whose kind is not a `kind:` line: flow, JSON, a list. */
function mayHideKinds(text: string): boolean {
  return /^[ \t]*[{[]/m.test(text) || /^kind:[ \t]*['"]?\w*List\b/m.test(text);
}
