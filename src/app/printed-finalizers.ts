import { STANDARD_FINALIZERS } from '../loaders/kubernetes/object-meta.js';

/** The domain of the finalizers of cosi's controllers, in a Kubernetes object's output. */
const COSI_FINALIZER_DOMAIN = 'cosi.dev';
/** The longest name part of a qualified name (`IsQualifiedName`). */
const MAX_NAME_PART = 63;

/**
 * A finalizer as a Kubernetes object prints it. A cosi controller holds a resource by a finalizer
 * of its own name (`GarbageCollector`, `ResourceGraph(webapp.kro.run)`); the API server refuses a
 * finalizer that is neither standard (`orphan`, `foregroundDeletion`, `kubernetes`) nor
 * domain-qualified (`ValidateObjectMeta`), so output with one would not read back, through
 * `cosi check` or `kubectl apply`. Such a name prints as `cosi.dev/<name>`, as cosi's owner prints
 * as the annotation `cosi.dev/owner`: its characters that a qualified name does not take made
 * `-`, at most 63 of them. A qualified or standard finalizer prints as it is. The finalizers of a
 * manifest are read as the API server sets them, not applied, so the printed ones read back to
 * the same state.
 *
 * @example
 * kubernetesFinalizer('GarbageCollector'); // 'cosi.dev/GarbageCollector'
 * kubernetesFinalizer('kro.run/finalizer'); // 'kro.run/finalizer'
 */
export function kubernetesFinalizer(finalizer: string): string {
  if (finalizer.includes('/') || STANDARD_FINALIZERS.has(finalizer)) return finalizer;
  const name = finalizer
    .replace(/[^-A-Za-z0-9_.]+/g, '-')
    .slice(0, MAX_NAME_PART)
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
  return `${COSI_FINALIZER_DOMAIN}/${name === '' ? 'controller' : name}`;
}
