import { stringify } from 'yaml';

/**
 * A printed document as YAML the way kubectl writes it (sigs.k8s.io/yaml, go-yaml v2): a string
 * a YAML 1.1 reader would take for something else is quoted, so `creationTimestamp:
 * "2026-01-02T03:04:05Z"` stays a string in PyYAML, Ruby and go-yaml v2 as in kubectl's output,
 * and so does a ConfigMap's `"on"`, `"yes"` or `"1:20"`. No `%YAML` directive is written; lines
 * are never folded, and a value met twice is written twice, not as an alias.
 */
export function outputYaml(document: unknown): string {
  return stringify(document, { lineWidth: 0, aliasDuplicateObjects: false, version: '1.1' });
}
