/**
 * Crossplane's CompositeResourceDefinition (XRD) defines kinds as a CRD does: Crossplane makes a
 * CRD of it for the composite resource (XR), and in `apiextensions.crossplane.io/v1` one for
 * its claim when it names `claimNames`. A repository keeps its XRDs beside the XRs and claims
 * that use them, so the XRD's kinds are defined here from the CRDs Crossplane would make:
 * the XRD's group, names and versions (the `referenceable` one stored), its schema with the
 * fields Crossplane adds to every XR's or claim's `spec` (`compositionRef`,
 * `compositionSelector`, `writeConnectionSecretToRef`, ...; taken as they come, their own
 * checks are Crossplane's), and the status subresource. The XRD document itself is still a
 * resource of its own kind, checked against Crossplane's CRDs when they are given.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { isPlainObject } from '../manifest-document.js';

/** The group of Crossplane's XRDs. */
const XRD_GROUP = 'apiextensions.crossplane.io';
const XRD_KIND = 'CompositeResourceDefinition';

/** Whether a Kubernetes-shaped document is a Crossplane XRD (`v1` or `v2`). */
export function isXrdDocument(value: Record<string, unknown>): boolean {
  return (
    value.kind === XRD_KIND &&
    typeof value.apiVersion === 'string' &&
    value.apiVersion.startsWith(`${XRD_GROUP}/`)
  );
}

/** A field Crossplane owns, taken as it comes. */
const ANY_OBJECT: JsonSchema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
const ANY_OBJECTS: JsonSchema = { type: 'array', items: ANY_OBJECT };
const ANY_STRING: JsonSchema = { type: 'string' };

/** The fields Crossplane adds to the `spec` of every XR and claim (`xcrd` in Crossplane). */
const COMPOSITION_FIELDS: Readonly<Record<string, JsonSchema>> = {
  compositionRef: ANY_OBJECT,
  compositionSelector: ANY_OBJECT,
  compositionRevisionRef: ANY_OBJECT,
  compositionRevisionSelector: ANY_OBJECT,
  compositionUpdatePolicy: ANY_STRING,
  publishConnectionDetailsTo: ANY_OBJECT,
  writeConnectionSecretToRef: ANY_OBJECT,
};

/** What an XR's `spec` has beside them (a v2 XR has them under `spec.crossplane`). */
const XR_FIELDS: Readonly<Record<string, JsonSchema>> = {
  ...COMPOSITION_FIELDS,
  claimRef: ANY_OBJECT,
  resourceRefs: ANY_OBJECTS,
  environmentConfigRefs: ANY_OBJECTS,
  crossplane: ANY_OBJECT,
};

/** What a claim's `spec` has beside them. */
const CLAIM_FIELDS: Readonly<Record<string, JsonSchema>> = {
  ...COMPOSITION_FIELDS,
  compositeDeletePolicy: ANY_STRING,
  resourceRef: ANY_OBJECT,
};

/**
 * The CRDs Crossplane makes of an XRD: the XR's, and a claim's for a `v1` XRD with
 * `claimNames`; none when the XRD lacks what they need (its own check says so).
 */
export function xrdCrds(xrd: Record<string, unknown>): Record<string, unknown>[] {
  const spec = xrd.spec;
  if (!isPlainObject(spec) || typeof spec.group !== 'string' || !isPlainObject(spec.names)) {
    return [];
  }
  if (!Array.isArray(spec.versions)) return [];
  const v1 = xrd.apiVersion === `${XRD_GROUP}/v1`;
  // A v1 XR is cluster-scoped; a v2 XRD says (Namespaced by default, LegacyCluster is cluster).
  const scope =
    v1 || spec.scope === 'Cluster' || spec.scope === 'LegacyCluster' ? 'Cluster' : 'Namespaced';
  const crds = [crd(spec.group, spec.names, scope, spec.versions, XR_FIELDS)];
  if (v1 && isPlainObject(spec.claimNames)) {
    crds.push(crd(spec.group, spec.claimNames, 'Namespaced', spec.versions, CLAIM_FIELDS));
  }
  return crds;
}

function crd(
  group: string,
  names: Record<string, unknown>,
  scope: 'Cluster' | 'Namespaced',
  versions: readonly unknown[],
  fields: Readonly<Record<string, JsonSchema>>,
): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${String(names.plural)}.${group}` },
    spec: {
      group,
      names,
      scope,
      versions: versions.map((version) => {
        if (!isPlainObject(version)) return version;
        const schema = isPlainObject(version.schema) ? version.schema.openAPIV3Schema : undefined;
        return {
          name: version.name,
          served: version.served,
          // The referenceable version is the one Crossplane stores.
          storage: version.referenceable,
          ...(version.additionalPrinterColumns === undefined
            ? {}
            : { additionalPrinterColumns: version.additionalPrinterColumns }),
          subresources: { status: {} },
          schema: { openAPIV3Schema: withCrossplaneFields(schema, fields) },
        };
      }),
    },
  };
}

/** A version's schema with Crossplane's fields in its `spec` (the XRD's own win). */
function withCrossplaneFields(
  schema: unknown,
  fields: Readonly<Record<string, JsonSchema>>,
): JsonSchema {
  const root: Record<string, unknown> = isPlainObject(schema) ? { ...schema } : { type: 'object' };
  const properties = isPlainObject(root.properties) ? { ...root.properties } : {};
  const spec: Record<string, unknown> = isPlainObject(properties.spec)
    ? { ...properties.spec }
    : { type: 'object' };
  spec.properties = { ...fields, ...(isPlainObject(spec.properties) ? spec.properties : {}) };
  properties.spec = spec;
  root.properties = properties;
  return root;
}
