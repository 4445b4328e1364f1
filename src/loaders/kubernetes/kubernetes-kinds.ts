/**
 * How a Kubernetes-shaped document finds its type: by group, version and kind, among the
 * definitions made from CRDs (and given definitions with a Kubernetes identity). When none
 * matches, the finding says which CRD would define it, or where the broken one is.
 */

import pluralize from 'pluralize';
import type { ResourceDefinition } from '../../engine/resource/definition.js';
import type { DocumentReport } from '../document-report.js';
import { formatLocation, type SourceLocation } from '../finding.js';
import type { KubernetesHeader } from '../manifest-document.js';
import { CRD_API_VERSION, CRD_KIND } from './crd-definitions.js';
import { splitApiVersion } from './kubernetes-shape.js';
import { didYouMean } from '../did-you-mean.js';

/** The definitions of Kubernetes kinds, by group, version and kind. */
export class KubernetesKinds {
  readonly #byKey = new Map<string, ResourceDefinition>();
  /** `group/kind` -> the versions served, to say which exist when another is asked for. */
  readonly #versions = new Map<string, string[]>();
  /** `group/kind` -> where a CRD left out for its findings is. */
  readonly #invalid = new Map<string, SourceLocation>();

  /** Adds a definition with a Kubernetes identity (others are ignored). */
  add(definition: ResourceDefinition): void {
    const identity = definition.kubernetes;
    if (identity === undefined) return;
    const { group, version } = splitApiVersion(identity.apiVersion);
    this.#byKey.set(key(group, version, identity.kind), definition);
    const groupKind = `${group}/${identity.kind}`;
    this.#versions.set(groupKind, [...(this.#versions.get(groupKind) ?? []), version]);
  }

  /** Remembers a CRD that was left out, so that its kind's resources can point at it. */
  addInvalid(group: string, kind: string, at: SourceLocation): void {
    if (!this.#invalid.has(`${group}/${kind}`)) this.#invalid.set(`${group}/${kind}`, at);
  }

  /** Whether a group, version and kind is defined already. */
  has(group: string, version: string, kind: string): boolean {
    return this.#byKey.has(key(group, version, kind));
  }

  /**
   * The definition of a document's group, version and kind, or `undefined`, reported at the
   * document's `kind` as an `unknown-type` naming the CRD that would define it.
   */
  resolve(header: KubernetesHeader, report: DocumentReport): ResourceDefinition | undefined {
    const { group, version, kind } = header;
    const found = this.#byKey.get(key(group, version, kind));
    if (found !== undefined) return found;
    const versions = this.#versions.get(`${group}/${kind}`);
    const invalid = this.#invalid.get(`${group}/${kind}`);
    const crd = `${pluralize.plural(kind).toLowerCase()}.${group}`;
    const servedBy = versions === undefined ? this.#apiVersionsOf(kind) : [];
    const unknown = versions === undefined && invalid === undefined && servedBy.length === 0;
    const near = unknown ? this.#nearestKind(kind) : undefined;
    let message: string;
    if (group === 'apiextensions.k8s.io' && kind === CRD_KIND) {
      message = `a CustomResourceDefinition of ${header.apiVersion} is not read: write it as ${CRD_API_VERSION} (v1beta1 was removed in Kubernetes 1.22)`;
    } else if (invalid !== undefined) {
      message = `kind ${kind} of ${header.apiVersion} is not defined: its CustomResourceDefinition at ${formatLocation(invalid)} is invalid`;
    } else if (servedBy.length > 0) {
      message = `kind ${kind} is not served by ${header.apiVersion}: write apiVersion: ${servedBy.join(' or ')}`;
    } else if (group === '' && versions === undefined) {
      // The API server keeps CRDs out of the core group: only a config definition can name it.
      message = `nothing defines kind ${kind} in the core group (${header.apiVersion}): define ${pluralize.plural(kind)}.core in the config with kubernetes: { apiVersion: '${header.apiVersion}', kind: '${kind}', namespaced: true }`;
    } else if (versions !== undefined) {
      message = `kind ${kind} has no version ${version} in ${group || 'the core group'}: its CustomResourceDefinition serves ${versions.join(', ')}`;
    } else {
      message = `no CustomResourceDefinition defines kind ${kind} in ${header.apiVersion}: add one (${crd}) with spec.group: ${group || '""'}, spec.names.kind: ${kind} and a served version ${version}`;
    }
    if (near !== undefined) {
      message = `${message} (did you mean kind ${near.kind} of ${near.apiVersion}?)`;
    }
    report.add('unknown-type', '/kind', message, {
      rule: 'kubernetes-kind',
      ...(invalid === undefined ? {} : { related: invalid }),
    });
    return undefined;
  }

  /** The apiVersions that serve a kind, in any group. */
  #apiVersionsOf(kind: string): string[] {
    return [...this.#byKey.values()]
      .flatMap((d) => (d.kubernetes?.kind === kind ? [d.kubernetes.apiVersion] : []))
      .sort();
  }

  /** The defined kind nearest to a misspelled one (another kind than `kind` itself). */
  #nearestKind(kind: string): { kind: string; apiVersion: string } | undefined {
    const identities = [...this.#byKey.values()].flatMap((d) => d.kubernetes ?? []);
    const near = didYouMean(
      kind,
      identities.map((k) => k.kind).filter((k) => k !== kind),
    );
    const identity = identities.find((k) => k.kind === near);
    return identity && { kind: identity.kind, apiVersion: identity.apiVersion };
  }
}

function key(group: string, version: string, kind: string): string {
  return `${group}/${version}/${kind}`;
}
