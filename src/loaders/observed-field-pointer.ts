/**
 * A field of an observed status (`ObservedStatuses.cosi.dev`) as the Kubernetes object it was
 * read from writes it: its `/spec/status/...` is the object's `/status/...`, its `name` the
 * object's `metadata.name`, its `kind` and `apiVersion` the object's. Its `type`, which cosi
 * derives from the kind, is the object's nowhere (it is at the document).
 */
export function observedFieldPointer(field: string): string {
  if (field === '/spec/status' || field.startsWith('/spec/status/'))
    return field.slice('/spec'.length);
  if (field === '/spec/name') return '/metadata/name';
  if (field === '/spec/kind' || field === '/spec/apiVersion') return field.slice('/spec'.length);
  return field === '/spec' ? '' : field;
}
