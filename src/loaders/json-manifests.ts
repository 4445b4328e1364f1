/**
 * Whether a JSON file met in a directory is a manifest: JSON files are read in directories, as
 * kubectl and kubeconform read them, and one that is no manifest at all (a `package.json`) is set
 * aside.
 */
import { jsonStreamObjects } from './json-stream.js';
import { isKubernetesObjectValue } from './object-head.js';

/**
 * An `apiVersion` or `kind` key, where a text that is not strict JSON may have one: quoted as JSON
 * quotes it, or, where a key begins (after `{`, `,` or at a line's start), unquoted or in single
 * quotes, as a YAML flow mapping writes it (`{apiVersion: apps/v1, kind: Deployment}`), which
 * kubectl refuses in a `.json` file. The spaces before such a key stop at a line's end (the next
 * line's start is where the key is then looked for): spaces that ran across lines would be read
 * again from each line's start, in quadratic time over a file of blank lines.
 */
const MANIFEST_KEY =
  /"(?:apiVersion|kind)"\s*:|(?:^|[{,])[^\S\n\r\u2028\u2029]*('?)(?:apiVersion|kind)\1\s*:/m;

/**
 * Whether a JSON file met in a directory is read as a manifest: an object with an `apiVersion`
 * or `kind` of its own (a `List` is one), or a cosi document (`metadata.type`), or an array
 * holding a Kubernetes object (kubectl refuses it, as cosi does), or a stream of objects one
 * after another (`jq -c`, as kubectl reads them) one of which is a manifest. A text that is not
 * strict JSON (a comment, a trailing comma, a mistake) is read when it may be one, so that its
 * mistakes are reported.
 */
export function isJsonManifest(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const objects = jsonStreamObjects(text);
    if (objects === undefined) return MANIFEST_KEY.test(text);
    return objects.some(([start, end]) => isJsonManifest(text.slice(start, end)));
  }
  // An array holding a Kubernetes object (a string apiVersion and kind): meant as manifests,
  // which kubectl refuses (one object a document): read, so that this is said, not set aside.
  if (Array.isArray(value)) return value.some(isKubernetesObjectValue);
  if (typeof value !== 'object' || value === null) return false;
  if (Object.hasOwn(value, 'apiVersion') || Object.hasOwn(value, 'kind')) return true;
  // A cosi document: `metadata.type` names its type.
  const metadata = (value as { metadata?: unknown }).metadata;
  return (
    typeof metadata === 'object' &&
    metadata !== null &&
    typeof (metadata as { type?: unknown }).type === 'string'
  );
}
