/**
 * A CRD's size against what a cluster takes: the API server's request limit, the annotation
 * client-side `kubectl apply` writes the whole object to, and etcd's default request limit.
 */

import type { DocumentReport } from '../document-report.js';
import { isPlainObject } from '../manifest-document.js';
import { MAX_CRD_BYTES } from '../request-limits.js';

/**
 * Whether a CRD's JSON (what kubectl and Helm send) is within the API server's request limit,
 * which is an error (not read) when it is not; one within it but over etcd's default request
 * limit is read, with a warning.
 */
export function fitsTheApiServer(value: Record<string, unknown>, report: DocumentReport): boolean {
  const bytes = Buffer.byteLength(JSON.stringify(value));
  if (bytes > MAX_CRD_BYTES) {
    report.add(
      'definition-too-large',
      '/kind',
      `this CustomResourceDefinition is ${bytes} bytes as JSON: over the Kubernetes API server's request limit of ${MAX_CRD_BYTES} bytes, so no cluster would take it (not read)`,
    );
    return false;
  }
  const applied = bytes + LAST_APPLIED.length + annotationBytes(value.metadata);
  if (bytes <= ETCD_REQUEST_LIMIT && applied > MAX_ANNOTATION_BYTES) {
    // Client-side apply keeps the whole object in an annotation; server-side apply keeps none.
    report.add(
      'large-definition',
      '/kind',
      `this CustomResourceDefinition is ${bytes} bytes as JSON: too large for client-side kubectl apply, whose ${LAST_APPLIED} annotation would hold all of it, over the API server's ${MAX_ANNOTATION_BYTES} bytes of annotations ("metadata.annotations: Too long: must have at most ${MAX_ANNOTATION_BYTES} bytes"); apply it with kubectl apply --server-side, or kubectl create`,
    );
  }
  if (bytes > ETCD_REQUEST_LIMIT) {
    report.add(
      'large-definition',
      '/kind',
      `this CustomResourceDefinition is ${bytes} bytes as JSON: over etcd's default request limit of ${ETCD_REQUEST_LIMIT} bytes (--max-request-bytes), so a cluster whose etcd keeps the default cannot store it ("etcdserver: request is too large"); shorter descriptions make it fit (controller-gen crd:maxDescLen=0)`,
    );
  }
  return true;
}

/** The annotation client-side `kubectl apply` writes the applied object to, as JSON. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** apimachinery's `TotalAnnotationSizeLimitB`: the keys and values of an object's annotations. */
const MAX_ANNOTATION_BYTES = 256 * 1024;

/** The bytes of an object's annotations but the last applied configuration, keys and values. */
function annotationBytes(metadata: unknown): number {
  const annotations = isPlainObject(metadata) ? metadata.annotations : undefined;
  if (!isPlainObject(annotations)) return 0;
  let total = 0;
  for (const [key, value] of Object.entries(annotations)) {
    if (key !== LAST_APPLIED && typeof value === 'string') {
      total += Buffer.byteLength(key) + Buffer.byteLength(value);
    }
  }
  return total;
}

/** etcd's default `--max-request-bytes` (1.5 MiB): the largest object most clusters store. */
const ETCD_REQUEST_LIMIT = 1.5 * 1024 * 1024;
