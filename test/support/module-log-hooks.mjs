// The loader hooks of module-log.mjs (they run on the loader's own thread).
import { appendFileSync } from 'node:fs';
import process from 'node:process';

export async function load(url, context, nextLoad) {
  appendFileSync(process.env.COSI_MODULE_LOG, `${url}\n`);
  return nextLoad(url, context);
}
