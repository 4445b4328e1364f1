/**
 * The Kubernetes API server's request limit (3 MiB, `MaxRequestBodyBytes`): a CustomResourceDefinition
 * whose JSON (what kubectl and Helm send) is larger cannot be created in a cluster, and parsing
 * one costs seconds and gigabytes.
 */
export const MAX_CRD_BYTES = 3 * 1024 * 1024;
