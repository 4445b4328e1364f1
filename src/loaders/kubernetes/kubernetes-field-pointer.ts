/**
 * A field of a Kubernetes object as its document writes it. cosi holds the object as
 * `{ metadata, spec }`, the spec holding the document's top-level fields other than `apiVersion`,
 * `kind` and `metadata`; so the resource's `/spec/spec/replicas` is the document's
 * `/spec/replicas`, `/spec/data/a` its `/data/a`, and `/spec` the document itself. Metadata's
 * fields are where they are.
 */
export function kubernetesFieldPointer(field: string): string {
  if (field === '/spec') return '';
  return field.startsWith('/spec/') ? field.slice('/spec'.length) : field;
}
