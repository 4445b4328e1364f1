import { readDefinitionPaths } from './src/loaders/definition-paths.js';
import { parseManifest } from './src/loaders/parse-manifest.js';
import { readFileSync, readdirSync } from 'node:fs';
const dirs = ['/work/wt-crd-accept/fixtures/real-crds/cert-manager/crds', '/work/wt-crd-accept/fixtures/real-crds/gateway-api/crds'];
let t = performance.now();
let n = 0;
for (const d of dirs) for (const f of readdirSync(d)) { parseManifest(readFileSync(`${d}/${f}`, 'utf8'), f); n++; }
console.log('parse only', n, (performance.now() - t).toFixed(0));
t = performance.now();
const r = await readDefinitionPaths(dirs, { cwd: '/' });
console.log('readDefinitionPaths', r.definitions.length, (performance.now() - t).toFixed(0));
