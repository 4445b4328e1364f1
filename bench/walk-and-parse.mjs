// The apply benchmark's baseline process: walks a manifest tree and parses every YAML document
// in it, the least any `cosi apply` of that tree has to do.
import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import process from 'node:process';
import { parseAllDocuments } from 'yaml';

async function walk(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full)));
    else if (/\.ya?ml$/.test(entry.name)) out.push(full);
  }
  return out.sort();
}

const files = await walk(process.argv[2]);
let documents = 0;
for (const file of files) {
  for (const doc of parseAllDocuments(await readFile(file, 'utf8'))) {
    doc.toJS();
    documents++;
  }
}
if (documents === 0) throw new Error('no documents');
