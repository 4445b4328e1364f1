import { readManifests } from '/work/wt-hostile-input/dist/loaders/manifest-reader.js';
import { parseAllDocuments } from 'yaml';
import { readFileSync } from 'node:fs';
const d = process.argv[2];
if (process.argv[3] === 'bare') { const t0=Date.now(); parseAllDocuments(readFileSync(d+'/t.yaml','utf8')); console.log('bare', Date.now()-t0); }
const t0 = Date.now();
const r = await readManifests([d]);
console.log(d, Date.now() - t0, 'ms', r.findings.length, r.resources.length, Math.round(process.memoryUsage().rss/1e6), 'MB');
console.log(r.findings.slice(0,2).map(f=>[f.code,f.line,f.col,f.pointer]));
