#!/usr/bin/env node
/* global URL, process, console */
// Vendors the built-in kinds of Kubernetes releases from their OpenAPI (swagger) documents.
//
//   node scripts/vendor-kubernetes-openapi.mjs 1.36=path/to/swagger.json [1.35=...]
//
// Each input is a release's `api/openapi-spec/swagger.json`, as Kubernetes' own
// hack/update-openapi-spec.sh generates it (kubernetes-sigs/reference-docs keeps one per release,
// generated with OpenAPI enums on: gen-apidocs/config/v1_NN/swagger.json). For each release it
// writes `kubernetes-openapi/<release>.json.br`: the kinds that can be created (group, version,
// kind, plural, namespaced and their definition, read from the POST operations of the paths) and
// the definitions they reach, unchanged. Paths and everything else are left out.
import { readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';

const out = new URL('../kubernetes-openapi/', import.meta.url);

for (const argument of process.argv.slice(2)) {
  const [release, file] = argument.split('=');
  if (!/^1\.\d+$/.test(release ?? '') || !file)
    throw new Error(`expected 1.NN=FILE, not ${argument}`);
  const swagger = JSON.parse(readFileSync(file, 'utf8'));
  const kinds = [];
  for (const [path, operations] of Object.entries(swagger.paths)) {
    const post = operations.post;
    const gvk = post?.['x-kubernetes-group-version-kind'];
    // Creating a resource: `.../{plural}`, never a subresource of one (`.../{name}/eviction`).
    if (gvk === undefined || path.includes('{name}')) continue;
    const ref = post.parameters?.find((p) => p.in === 'body')?.schema?.$ref;
    if (typeof ref !== 'string') continue;
    kinds.push({
      group: gvk.group,
      version: gvk.version,
      kind: gvk.kind,
      plural: path.slice(path.lastIndexOf('/') + 1),
      namespaced: path.includes('/namespaces/{namespace}/'),
      definition: ref.slice('#/definitions/'.length),
    });
  }
  kinds.sort((a, b) =>
    `${a.group}/${a.version}/${a.kind}`.localeCompare(`${b.group}/${b.version}/${b.kind}`),
  );
  const definitions = {};
  const visit = (name) => {
    if (name in definitions) return;
    const definition = swagger.definitions[name];
    if (definition === undefined) throw new Error(`${file}: no definition ${name}`);
    definitions[name] = definition;
    JSON.stringify(definition, (key, value) => {
      if (key === '$ref' && typeof value === 'string') visit(value.slice('#/definitions/'.length));
      return value;
    });
  };
  for (const kind of kinds) visit(kind.definition);
  const sorted = Object.fromEntries(
    Object.entries(definitions).sort(([a], [b]) => a.localeCompare(b)),
  );
  const text = JSON.stringify({ release, kinds, definitions: sorted });
  const compressed = brotliCompressSync(text, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24 },
  });
  writeFileSync(new URL(`${release}.json.br`, out), compressed);
  console.log(
    `${release}: ${kinds.length} kinds, ${Object.keys(sorted).length} definitions, ${compressed.length} bytes`,
  );
}
