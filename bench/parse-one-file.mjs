// The large-single-file benchmark's baseline process: reads one manifest file and parses it the
// least way a reader of it must, JSON.parse for JSON, yaml's parseAllDocuments and toJS for YAML.
import { readFile } from 'node:fs/promises';
import process from 'node:process';
import { parseAllDocuments } from 'yaml';

const file = process.argv[2];
const text = await readFile(file, 'utf8');
let values = 0;
if (file.endsWith('.json')) {
  JSON.parse(text);
  values++;
} else {
  for (const doc of parseAllDocuments(text)) {
    doc.toJS();
    values++;
  }
}
if (values === 0) throw new Error('nothing parsed');
