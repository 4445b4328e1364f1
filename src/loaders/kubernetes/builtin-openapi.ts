/**
 * The vendored OpenAPI of a Kubernetes release: the kinds that can be created and the
 * definitions they use, as `scripts/vendor-kubernetes-openapi.mjs` wrote them from the release's
 * `api/openapi-spec/swagger.json` (see `kubernetes-openapi/README.md`). Read and decompressed
 * once per process, the first time a document needs a built-in kind.
 */

import { readFileSync } from 'node:fs';
import type { JsonSchema } from '../../engine/resource/definition.js';
import { packageFile } from '../package-location.js';
import type { KubernetesRelease } from './kubernetes-release.js';

/** A kind of a release that can be created, from the POST operation that creates it. */
export interface BuiltinKindEntry {
  /** Empty for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The resource's plural, as its REST path names it: `deployments`. */
  readonly plural: string;
  readonly namespaced: boolean;
  /** The name of its OpenAPI definition: `io.k8s.api.apps.v1.Deployment`. */
  readonly definition: string;
}

/** A release's vendored document. */
export interface BuiltinOpenApi {
  readonly release: KubernetesRelease;
  readonly kinds: readonly BuiltinKindEntry[];
  /** OpenAPI v2 definitions by name, as Kubernetes publishes them (`$ref`s between them). */
  readonly definitions: Readonly<Record<string, JsonSchema>>;
}

/** Where the vendored documents are: `kubernetes-openapi/` at the package root. */

const read = new Map<KubernetesRelease, BuiltinOpenApi>();

/** The vendored document of a release (read from disk the first time). */
export function builtinOpenApi(release: KubernetesRelease): BuiltinOpenApi {
  let document = read.get(release);
  if (document === undefined) {
    // Found and decompressed when a document first needs a built-in kind: a command that never
    // meets one loads neither the package's place nor zlib.
    const bytes = readFileSync(packageFile(`kubernetes-openapi/${release}.json.br`));
    const zlib = process.getBuiltinModule('node:zlib');
    document = JSON.parse(zlib.brotliDecompressSync(bytes).toString('utf8')) as BuiltinOpenApi;
    read.set(release, document);
  }
  return document;
}
