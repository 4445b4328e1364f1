/**
 * A CustomResourceDefinition whose kind's `spec` is taken as it comes: for a kind whose own CRD is
 * large (Kyverno's policies), in tests about what is checked beside the schema.
 */
export function openSpecCrd(
  group: string,
  kind: string,
  plural: string,
  scope: 'Cluster' | 'Namespaced' = 'Cluster',
  version = 'v1alpha1',
): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: ${plural}.${group} }
spec:
  group: ${group}
  names: { kind: ${kind}, plural: ${plural} }
  scope: ${scope}
  versions:
    - name: ${version}
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: { type: object, x-kubernetes-preserve-unknown-fields: true }
`;
}
