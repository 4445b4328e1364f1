import { loadManifests } from './dist/loaders/load-manifests.js';
import { parseAllDocuments } from 'yaml';
const D = 'metadata:\n  type: rd\nspec:\n  type: Things.example.org\n';
for (const n of [10000, 20000, 40000]) {
  const labels = Array.from({ length: n }, (_, i) => `    k${i}: ${i}\n`).join('');
  const text = `metadata:\n  type: Things.example.org\n  id: a\n  labels:\n${labels}spec: {}\n`;
  let t = Date.now(); parseAllDocuments(text); const bare = Date.now() - t;
  t = Date.now(); loadManifests([{ path: 'd', text: D }, { path: 't', text }]); console.log(n, 'bare', bare, 'load', Date.now() - t);
}
