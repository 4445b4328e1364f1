/**
 * The generated manifest tree the apply and watch benchmarks share: VMs and Hosts for the
 * vm-network controllers, in 100-file groups.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

export const FILES = 1_000;
export const PER_FILE = 10;
/** One host per 100 resources: about 99 VMs on each, as on a real cluster. */
export const HOSTS_EVERY = 100;

/** Writes the tree of `resources` resources (10,000 by default) below `dir`; returns the files, sorted. */
export async function generateTree(dir: string, resources = FILES * PER_FILE): Promise<string[]> {
  const paths: string[] = [];
  let n = 0;
  const files = Math.ceil(resources / PER_FILE);
  for (let f = 0; f < files; f++) {
    const sub = path.join(dir, `group-${String(Math.floor(f / 100)).padStart(2, '0')}`);
    await mkdir(sub, { recursive: true });
    const docs: string[] = [];
    for (let i = 0; i < PER_FILE; i++, n++) {
      if (n % HOSTS_EVERY === 0) {
        docs.push(
          `metadata:\n  type: host\n  id: host-${n}\n  labels:\n    zone: z${n % 7}\nspec:\n  cpus: 64\n  zone: z${n % 7}\n`,
        );
      } else {
        const host = n - (n % HOSTS_EVERY);
        docs.push(
          `metadata:\n  type: vm\n  id: vm-${n}\n  labels:\n    tier: t${n % 3}\nspec:\n  cpus: ${1 + (n % 8)}\n  image: image-${n % 5}\n  host: host-${host}\n`,
        );
      }
    }
    const file = path.join(sub, `manifests-${String(f).padStart(4, '0')}.yaml`);
    await writeFile(file, docs.join('---\n'));
    paths.push(file);
  }
  return paths.sort();
}
