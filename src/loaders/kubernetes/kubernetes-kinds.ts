/**
 * How a Kubernetes-shaped document finds its type: by group, version and kind, among the
 * definitions made from CRDs (and given definitions with a Kubernetes identity), then among the
 * built-in kinds of the chosen Kubernetes release, then among the JSON Schemas of
 * `--schema-location` (for a group and kind no CRD defines). When none matches, the finding says
 * which CRD would define it, where the broken one is, which schema files were looked for, or when
 * Kubernetes removed the API and what replaces it.
 */

import leven from 'leven';
import pluralize from 'pluralize';
import type { ResourceDefinition } from '../../engine/resource/definition.js';
import type { DocumentReport } from '../document-report.js';
import { formatLocation, type SourceLocation } from '../finding.js';
import type { KubernetesHeader } from '../manifest-document.js';
import type { DefinitionRegistry } from '../../engine/resource/definition-registry.js';
import type { BuiltinKinds } from './builtin-kinds.js';
import type { CelRules } from '../cel/cel-rule-engine.js';
import type { SchemaCompiler } from '../schema-compiler.js';
import { CRD_API_VERSION, CRD_KIND } from './crd-definitions.js';
import { splitApiVersion } from './kubernetes-shape.js';
import { didYouMean } from '../did-you-mean.js';
import { isReleaseAtLeast, lastRemovalOf, removedApi, type RemovedApi } from './removed-apis.js';
import { runDeferredCheck } from './deferred-check.js';
import { notAnObject } from './component-configs.js';

/** What a load checks a kind found outside it with (a JSON Schema's, see `json-schema-kinds.ts`). */
export interface SchemaCheckContext {
  readonly compiler: SchemaCompiler;
  readonly celRules: () => CelRules;
}

/**
 * Kinds defined outside the load, asked for one that nothing of the load defines: the JSON
 * Schemas of `--schema-location` (`json-schema-kinds.ts`). Kept to this shape here, so that the
 * load does not depend on how they are found and read.
 */
export interface SchemaKindSource {
  /** True when it can define nothing (no location given). */
  readonly isEmpty: boolean;
  /** The definition of a group, version and kind, its checks put off until it is used. */
  find(
    group: string,
    version: string,
    kind: string,
    context: SchemaCheckContext,
  ): ResourceDefinition | undefined;
  /** The places looked at in vain for a kind (empty when found or not asked). */
  tried(group: string, version: string, kind: string): readonly string[];
}

/** The definitions of Kubernetes kinds, by group, version and kind. */
export class KubernetesKinds {
  readonly #byKey = new Map<string, ResourceDefinition>();
  /** `group/kind` -> the versions served, to say which exist when another is asked for. */
  readonly #versions = new Map<string, string[]>();
  /** kind -> the apiVersions the definitions added serve it in, in any group. */
  readonly #apiVersionsByKind = new Map<string, string[]>();
  /** `group/kind` -> where a CRD (or schema) left out for its findings is, and which it was. */
  readonly #invalid = new Map<string, { at: SourceLocation; what: string }>();
  /** Where built-in kinds resolved by a document are registered, once each. */
  #registry: DefinitionRegistry | undefined;

  /**
   * `builtins`: the built-in kinds of the chosen release, found when nothing given defines one;
   * `schemas`: the kinds of `--schema-location`, found when neither does, checked with `context`.
   */
  constructor(
    readonly builtins?: BuiltinKinds,
    readonly schemas?: { readonly kinds: SchemaKindSource; readonly context: SchemaCheckContext },
  ) {}

  /** Definitions whose put-off check this load has run: `true` when it passed. */
  readonly #deferred = new Map<ResourceDefinition, boolean>();

  /**
   * Runs a definition's put-off check the first time this load uses it (its findings, at the
   * CRD, join the load's); a definition that fails it is as good as absent.
   */
  #passesDeferredCheck(
    definition: ResourceDefinition,
    report: DocumentReport,
    what = 'CustomResourceDefinition',
  ): boolean {
    const known = this.#deferred.get(definition);
    if (known !== undefined) return known;
    const findings = runDeferredCheck(definition) ?? [];
    for (const finding of findings) report.findings.push(finding);
    const passed = !findings.some((f) => f.severity === 'error');
    this.#deferred.set(definition, passed);
    if (!passed && findings[0] !== undefined) {
      const { group, version } = splitApiVersion(definition.kubernetes?.apiVersion ?? '');
      this.#byKey.delete(key(group, version, definition.kubernetes?.kind ?? ''));
      this.addInvalid(group, definition.kubernetes?.kind ?? '', findings[0], what);
    }
    return passed;
  }

  /** Registers in `registry` every built-in kind a document resolves from now on. */
  registerBuiltinsIn(registry: DefinitionRegistry): void {
    this.#registry = registry;
  }

  /** Adds a definition with a Kubernetes identity (others are ignored). */
  add(definition: ResourceDefinition): void {
    const identity = definition.kubernetes;
    if (identity === undefined) return;
    const { group, version } = splitApiVersion(identity.apiVersion);
    this.#byKey.set(key(group, version, identity.kind), definition);
    const groupKind = `${group}/${identity.kind}`;
    this.#versions.set(groupKind, [...(this.#versions.get(groupKind) ?? []), version]);
    const served = this.#apiVersionsByKind.get(identity.kind);
    if (served === undefined) this.#apiVersionsByKind.set(identity.kind, [identity.apiVersion]);
    else served.push(identity.apiVersion);
  }

  /** Remembers a CRD (or schema) that was left out, so that its kind's resources can point at it. */
  addInvalid(
    group: string,
    kind: string,
    at: SourceLocation,
    what = 'CustomResourceDefinition',
  ): void {
    if (!this.#invalid.has(`${group}/${kind}`)) this.#invalid.set(`${group}/${kind}`, { at, what });
  }

  /**
   * Takes back a definition added before, which turned out invalid (a kro RGD whose graph kro
   * would not build, so that it creates no CRD): its kind is then unknown, and its resources
   * point at `at`.
   */
  withdraw(definition: ResourceDefinition, at: SourceLocation, what: string): void {
    const identity = definition.kubernetes;
    if (identity === undefined) return;
    const { group, version } = splitApiVersion(identity.apiVersion);
    if (this.#byKey.get(key(group, version, identity.kind)) !== definition) return;
    this.#byKey.delete(key(group, version, identity.kind));
    const groupKind = `${group}/${identity.kind}`;
    const versions = (this.#versions.get(groupKind) ?? []).filter((v) => v !== version);
    if (versions.length > 0) this.#versions.set(groupKind, versions);
    else this.#versions.delete(groupKind);
    const served = (this.#apiVersionsByKind.get(identity.kind) ?? []).filter(
      (v) => v !== identity.apiVersion,
    );
    if (served.length > 0) this.#apiVersionsByKind.set(identity.kind, served);
    else this.#apiVersionsByKind.delete(identity.kind);
    this.addInvalid(group, identity.kind, at, what);
  }

  /** Where the invalid definition of a group and kind is, and what it is, if one was left out. */
  invalidAt(group: string, kind: string): { at: SourceLocation; what: string } | undefined {
    return this.#invalid.get(`${group}/${kind}`);
  }

  /** Whether a group, version and kind is defined already. */
  has(group: string, version: string, kind: string): boolean {
    return this.#byKey.has(key(group, version, kind));
  }

  /** The definition of a group, version and kind (a built-in one too), or `undefined`; reports nothing. */
  find(
    header: Pick<KubernetesHeader, 'group' | 'version' | 'kind'>,
  ): ResourceDefinition | undefined {
    const { group, version, kind } = header;
    return (
      this.#byKey.get(key(group, version, kind)) ??
      this.builtins?.find(group, version, kind) ??
      this.#schemaKind(group, version, kind)
    );
  }

  /**
   * The definition of a kind from `--schema-location`: only for a group and kind that no CRD
   * of the load defines (a CRD given says which versions exist, and a broken one is reported).
   */
  #schemaKind(group: string, version: string, kind: string): ResourceDefinition | undefined {
    if (this.schemas === undefined) return undefined;
    const groupKind = `${group}/${kind}`;
    if (this.#versions.has(groupKind) || this.#invalid.has(groupKind)) return undefined;
    return this.schemas.kinds.find(group, version, kind, this.schemas.context);
  }

  /** Registers a kind found outside the load's definitions (built in, or a schema's), once. */
  #register(definition: ResourceDefinition): void {
    if (this.#registry !== undefined && !this.#registry.has(definition.type)) {
      this.#registry.register(definition);
    }
  }

  /**
   * The definition of a document's group, version and kind, or `undefined`, reported at the
   * document's `kind` as an `unknown-type` naming the CRD that would define it.
   */
  resolve(header: KubernetesHeader, report: DocumentReport): ResourceDefinition | undefined {
    const { group, version, kind } = header;
    const found = this.#byKey.get(key(group, version, kind));
    if (found !== undefined && this.#passesDeferredCheck(found, report)) return found;
    const builtin = this.builtins?.find(group, version, kind);
    if (builtin !== undefined) {
      this.#byKey.set(key(group, version, kind), builtin);
      this.#register(builtin);
      return builtin;
    }
    const fromSchema = this.#schemaKind(group, version, kind);
    if (fromSchema !== undefined && this.#passesDeferredCheck(fromSchema, report, 'schema')) {
      this.#byKey.set(key(group, version, kind), fromSchema);
      this.#register(fromSchema);
      return fromSchema;
    }
    const versions = this.#versions.get(`${group}/${kind}`);
    const invalid = this.#invalid.get(`${group}/${kind}`);
    const builtinVersions = this.builtins?.versionsOf(group, kind) ?? [];
    const removed = removedApi(header.apiVersion, kind);
    const lastRemoved = removed === undefined ? lastRemovalOf(kind) : undefined;
    const release = this.builtins?.release;
    const crd = `${pluralize.plural(kind).toLowerCase()}.${group}`;
    // The built-in apiVersions of a kind of this name, in whatever group.
    const builtinElsewhere = this.builtins?.apiVersionsOf(kind) ?? [];
    const servedElsewhere = versions === undefined ? this.#apiVersionsOf(kind) : [];
    // Another group's kind of the same name is another API (Istio's Gateway is not Gateway
    // API's, Crossplane's meta.pkg Configuration not its pkg one): only a group a typo away
    // is what the document meant.
    const typoOf = groupTypo(group, [...new Set(servedElsewhere.map(groupOf))]);
    const servedBy = servedElsewhere.filter((v) => typoOf !== undefined && groupOf(v) === typoOf);
    const otherApis = servedBy.length === 0 ? servedElsewhere : [];
    const unknown =
      versions === undefined &&
      invalid === undefined &&
      servedElsewhere.length === 0 &&
      builtinElsewhere.length === 0 &&
      removed === undefined;
    const caseOf = versions === undefined ? this.#caseVariant(group, version, kind) : undefined;
    const near = unknown && caseOf === undefined ? this.#nearestKind(kind) : undefined;
    const notObject = notAnObject(group, kind);
    let message: string;
    // Built-in kinds and removed APIs are Kubernetes' answer: no config could change it.
    let rule = 'kubernetes-kind';
    /** The did-you-mean is the message's first advice already (a typo of a core kind). */
    let saidNear = false;
    if (
      removed !== undefined &&
      (release === undefined || isReleaseAtLeast(release, removed.removedIn))
    ) {
      message = `${kind} of ${header.apiVersion} was removed in Kubernetes ${removed.removedIn}: use ${insteadOf(removed)}`;
      rule = 'removed-api';
    } else if (group === '' && kind === 'List') {
      // Read as its items when it has a list of them (`kubernetes-list.ts`): here it has none.
      message = `a List is no object to apply: kubectl applies the objects of a List's items (a list of objects, as kubectl get -o yaml writes it), one List deep; give this one's objects as such items, or as documents of their own`;
    } else if (group === KUSTOMIZE_GROUP) {
      // Flux's gotk-patches.yaml and the like: a kustomization under another file name.
      message = `${kind} of ${header.apiVersion} is kustomize's configuration, not a resource: name its file kustomization.yaml (set aside, with its patches), or check what it builds with kustomize build DIR | cosi check -f -`;
      rule = 'builtin-kind';
    } else if (notObject !== undefined && versions === undefined && builtinVersions.length === 0) {
      message = `${kind} of ${header.apiVersion} is ${notObject}, not an object applied to a cluster: leave it out (--skip-kinds ${kind}, --ignore, or .cosiignore)`;
      rule = 'component-config';
    } else if (group === '' && version.includes('.') && versions === undefined) {
      // `apiVersion: monitoring.coreos.com`: a group, its version left out.
      const served = this.#versions.get(`${version}/${kind}`) ?? [];
      message = `apiVersion ${header.apiVersion} is a group without its version: write ${version}/VERSION${served.length > 0 ? ` (its CustomResourceDefinition serves ${served.map((v) => `${version}/${v}`).join(', ')})` : ''}`;
      rule = 'invalid-api-version';
    } else if (group === 'apiextensions.k8s.io' && kind === CRD_KIND) {
      message = `a CustomResourceDefinition of ${header.apiVersion} is not read: write it as ${CRD_API_VERSION} (v1beta1 was removed in Kubernetes 1.22)`;
    } else if (builtinVersions.length > 0 && versions === undefined) {
      message = `Kubernetes ${release ?? ''} serves kind ${kind} of ${group || 'the core group'} as ${builtinVersions.map((v) => apiVersionOf(group, v)).join(', ')}, not ${header.apiVersion}`;
      rule = 'builtin-kind';
    } else if (servedBy.length > 0) {
      message = `kind ${kind} is not served by ${header.apiVersion}: write apiVersion: ${servedBy.join(' or ')}`;
    } else if (
      versions === undefined &&
      invalid === undefined &&
      builtinElsewhere.length === 0 &&
      lastRemoved !== undefined &&
      (release === undefined || isReleaseAtLeast(release, lastRemoved.removedIn))
    ) {
      // `policy/v1` PodSecurityPolicy: a kind Kubernetes served elsewhere, and serves no more.
      message = `kind ${kind} is not served by ${header.apiVersion}, nor by any apiVersion since Kubernetes ${lastRemoved.removedIn}, which removed ${lastRemoved.apiVersion}: use ${insteadOf(lastRemoved)}`;
      rule = 'removed-api';
    } else if (
      group === '' &&
      version !== 'v1' &&
      versions === undefined &&
      builtinVersions.length === 0
    ) {
      // `apiVersion: v1alpha1`: a group left out, a placeholder a script fills in, or a tool's
      // own file (Talos' machine configuration documents).
      message = /^\$\{?\w+\}?$/.test(header.apiVersion)
        ? `apiVersion ${header.apiVersion} is a variable a script fills in (envsubst): check what it renders, as envsubst < FILE | cosi check -f -, or leave the file out (--ignore, or .cosiignore)`
        : `apiVersion ${header.apiVersion} names no Kubernetes API: an apiVersion without a group is the core group's, which has v1 alone: write the kind's group (GROUP/${version}), or leave a tool's own file out (Talos' machine configuration documents are written so: --skip-kinds ${kind}, --ignore, or .cosiignore)`;
      rule = 'tool-kind';
    } else if (group === '' && versions === undefined) {
      // The API server keeps CRDs out of the core group: only a config definition can name it.
      const elsewhere = builtinElsewhere;
      if (elsewhere.length > 0) rule = 'builtin-kind';
      const define = `define ${pluralize.plural(kind)}.core in the config with kubernetes: { apiVersion: '${header.apiVersion}', kind: '${kind}', namespaced: true }`;
      message =
        elsewhere.length > 0
          ? `kind ${kind} is not in the core group (${header.apiVersion}): Kubernetes ${release ?? ''} serves it as ${elsewhere.join(', ')}`
          : near !== undefined
            ? // `ConfigMapp`: a typo far more often than a kind of the project's own.
              `Kubernetes ${release ?? ''} has no kind ${kind} in the core group (${header.apiVersion}): did you mean kind ${near.kind} of ${near.apiVersion}? (a kind of the project's own: ${define})`
            : `Kubernetes ${release ?? ''} has no kind ${kind} in the core group (${header.apiVersion}): ${define}`;
      if (elsewhere.length === 0 && near !== undefined) saidNear = true;
    } else if (invalid !== undefined) {
      message = `kind ${kind} of ${header.apiVersion} is not defined: its ${invalid.what} at ${formatLocation(invalid.at)} is invalid`;
    } else if (versions !== undefined) {
      message = `kind ${kind} has no version ${version} in ${group || 'the core group'}: its CustomResourceDefinition serves ${versions.join(', ')}`;
    } else if (
      builtinElsewhere.length > 0 &&
      !isCustomGroup(group, this.builtins?.hasGroup(group) ?? false)
    ) {
      message = `kind ${kind} is not in ${header.apiVersion}: Kubernetes ${release ?? ''} serves it as ${builtinElsewhere.join(', ')}`;
      rule = 'builtin-kind';
    } else if (this.builtins?.hasGroup(group) ?? false) {
      // `apps`, `networking.k8s.io`: a group Kubernetes serves itself takes no CRD's kind.
      message = `Kubernetes ${release ?? ''} has no kind ${kind} in ${header.apiVersion}, and no CustomResourceDefinition can add one to its group ${group}`;
      rule = 'builtin-kind';
    } else if (group !== '' && !group.includes('.')) {
      // `skaffold/v2beta22`: a CRD's group has a dot; such a file is most often a tool's own.
      message = `no CustomResourceDefinition can define kind ${kind} of ${header.apiVersion}: a CRD's group has a dot, and ${group} has none; a tool's own file (Skaffold's, say) is no Kubernetes object: leave it out (--skip-kinds ${kind}, --ignore, or .cosiignore)`;
      rule = 'tool-kind';
    } else if (caseOf !== undefined) {
      // `kind: widget` beside the CRD of `Widget`: the API server matches kinds as written
      // (`no matches for kind "widget"`), and another CRD of the group naming a kind so is a typo's
      // only: an error even where a CRD not given would be skipped (--ignore-unknown-kinds).
      message = `no CustomResourceDefinition defines kind ${kind} in ${header.apiVersion}: kinds are case-sensitive, and the one its group serves so is ${caseOf}: write kind: ${caseOf}`;
    } else {
      message = `no CustomResourceDefinition defines kind ${kind} in ${header.apiVersion}: add one (${crd}) with spec.group: ${group || '""'}, spec.names.kind: ${kind} and a served version ${version}`;
      rule = 'missing-crd';
      if (group === 'kro.run' && kind === 'ResourceGroup') {
        // kro 0.2 renamed it (kro's PR 211, January 2025).
        message = `${message}; ResourceGroup is kro's name before 0.2 of ResourceGraphDefinition: write kind: ResourceGraphDefinition`;
      } else if (group === 'kro.run') {
        // kro's group: the kind of an RGD's instances, most likely.
        message = `${message}; if it is a kro instance, give the ResourceGraphDefinition whose spec.schema.kind is ${kind} (one with errors defines no kind)`;
      }
      if (otherApis.length > 0) {
        message = `${message} (a kind ${kind} of another group is defined, ${otherApis.join(', ')}: another API, unless that is the one meant)`;
      } else if (builtinElsewhere.length > 0) {
        // Knative's Service, Volcano's Job: a CRD's kind named like a built-in one.
        message = `${message} (Kubernetes ${release ?? ''} also has a kind ${kind}, as ${builtinElsewhere.join(', ')}: another API, unless that is the one meant)`;
      }
    }
    const tried = this.schemas?.kinds.tried(group, version, kind) ?? [];
    if (tried.length > 0) message = `${message} (no schema at ${tried.join(' or ')})`;
    if (near !== undefined && !saidNear) {
      message = `${message} (did you mean kind ${near.kind} of ${near.apiVersion}?)`;
    }
    report.add('unknown-type', '/kind', message, {
      rule,
      ...(invalid === undefined ? {} : { related: invalid.at }),
    });
    return undefined;
  }

  /**
   * Whether a kind is cluster-scoped, named as Kyverno names kinds to a cluster's discovery: the
   * kind alone (cluster-scoped when a kind of that name is, in any group, as Kyverno reads it),
   * or `version/Kind` (the core group) or `group/version/Kind`. `undefined` when neither the
   * load's definitions nor the built-in kinds serve it (a wildcard, a subresource, another
   * project's kind whose CRD was not given).
   */
  isClusterScoped(name: string): boolean | undefined {
    const parts = name.split('/');
    if (parts.length === 1) {
      const scopes = [
        ...this.#apiVersionsOf(name),
        ...(this.builtins?.apiVersionsOf(name) ?? []),
      ].map((apiVersion) => {
        const { group, version } = splitApiVersion(apiVersion);
        return this.#isNamespaced(group, version, name);
      });
      if (scopes.includes(false)) return true;
      return scopes.includes(true) ? false : undefined;
    }
    if (parts.length > 3) return undefined;
    const [group, version, kind] = parts.length === 2 ? ['', ...parts] : parts;
    const namespaced = this.#isNamespaced(group as string, version as string, kind as string);
    return namespaced === undefined ? undefined : !namespaced;
  }

  /** Whether a group, version and kind the load knows is namespaced; `undefined`: unknown. */
  #isNamespaced(group: string, version: string, kind: string): boolean | undefined {
    return (
      this.#byKey.get(key(group, version, kind))?.kubernetes?.namespaced ??
      this.builtins?.isNamespaced(group, version, kind)
    );
  }

  /** The apiVersions the definitions added serve a kind in, in any group. */
  #apiVersionsOf(kind: string): string[] {
    return [...(this.#apiVersionsByKind.get(kind) ?? [])].sort();
  }

  /**
   * The kind a definition of the load serves at `group`/`version` that is `kind` in another case
   * (`Widget` for `widget`), or `undefined`.
   */
  #caseVariant(group: string, version: string, kind: string): string | undefined {
    const lower = kind.toLowerCase();
    for (const [groupKind, versions] of this.#versions) {
      const slash = groupKind.lastIndexOf('/');
      const other = groupKind.slice(slash + 1);
      if (groupKind.slice(0, slash) !== group || other === kind) continue;
      if (other.toLowerCase() === lower && versions.includes(version)) return other;
    }
    return undefined;
  }

  /** The kind nearest to a misspelled one, added or built in, and an apiVersion serving it. */
  #nearestKind(kind: string): { kind: string; apiVersion: string } | undefined {
    const added = [...this.#versions.keys()].map((gk) => gk.slice(gk.lastIndexOf('/') + 1));
    const near = didYouMean(kind, [...new Set([...added, ...(this.builtins?.kinds() ?? [])])]);
    if (near === undefined) return undefined;
    const apiVersion = this.#apiVersionsOf(near)[0] ?? this.builtins?.apiVersionsOf(near)[0];
    return apiVersion === undefined ? undefined : { kind: near, apiVersion };
  }
}

/**
 * Whether a group can only be a CustomResourceDefinition's: it has a dot and Kubernetes does not
 * serve it (`builtin`). `serving.knative.dev/v1` or `gateway.networking.k8s.io/v1` Service is
 * another project's, not a misplaced core Service; `app/v1` or `networking.k8s.io/v1` Deployment
 * is a slip.
 */
function isCustomGroup(group: string, builtin: boolean): boolean {
  return group.includes('.') && !builtin;
}

/** What to write instead of a removed API: its replacement apiVersion, or what replaces it. */
function insteadOf(removed: RemovedApi): string {
  return removed.replacement.includes(' ')
    ? removed.replacement
    : `apiVersion: ${removed.replacement}`;
}

/**
 * The group a misspelt one was meant to be: as many labels, at most two edits away in all
 * (`cert-manger.io`, `certmanager.io`); undefined when none is.
 */
function groupTypo(group: string, groups: readonly string[]): string | undefined {
  const labels = group.split('.').length;
  const near = groups.filter((g) => g.split('.').length === labels && leven(g, group) <= 2);
  return near.length === 1 ? near[0] : undefined;
}

/** kustomize's own kinds' group (`Kustomization`, `Component`): configurations, not resources. */
const KUSTOMIZE_GROUP = 'kustomize.config.k8s.io';

/** The group of an apiVersion (`''` for the core group's `v1`). */
function groupOf(apiVersion: string): string {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

function key(group: string, version: string, kind: string): string {
  return `${group}/${version}/${kind}`;
}
