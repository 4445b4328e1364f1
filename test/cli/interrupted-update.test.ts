/**
 * `cosi check --update` stopped by Ctrl-C while it writes a large golden file: the built CLI runs
 * as a real process, the test watches the golden directory and sends SIGINT the moment the write
 * shows, and the golden file must then hold the whole old content or the whole new, byte for byte.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO } from './run-cli.js';

const GOLDEN = 'VMs.example.org.yaml';
let dir: string;

/** A manifest tree whose golden file is some 20 MB: long enough to write that a signal lands in it. */
async function manifests(name: string, image: string): Promise<string> {
  const tree = path.join(dir, name);
  await mkdir(tree);
  await copyFile(
    path.join(REPO, 'fixtures/minimal/definitions.yaml'),
    path.join(tree, 'defs.yaml'),
  );
  const long = image.repeat(200_000);
  const docs = Array.from(
    { length: 100 },
    (_, i) => `---\nmetadata: { type: vm, id: vm-${i} }\nspec: { cpus: 2, image: ${long} }\n`,
  );
  await writeFile(path.join(tree, 'vms.yaml'), docs.join(''));
  return tree;
}

/** Runs the built CLI; `interrupt` decides, polled, when to send SIGINT. */
async function update(
  tree: string,
  golden: string,
  interrupt?: () => Promise<boolean>,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; interrupted: boolean }> {
  const child = spawn(
    process.execPath,
    [path.join(REPO, 'bin/cosi.js'), 'check', '-f', tree, '--expect', golden, '--update', '-q'],
    { stdio: 'ignore' },
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const state = { done: false };
  void exited.then(() => (state.done = true));
  let interrupted = false;
  const deadline = Date.now() + 60_000;
  while (interrupt && !state.done && Date.now() < deadline) {
    if (await interrupt()) {
      child.kill('SIGINT');
      interrupted = true;
      break;
    }
  }
  if (interrupt && !state.done && !interrupted) child.kill('SIGKILL');
  return { ...(await exited), interrupted };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-interrupted-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('leaves the whole old or the whole new golden file when interrupted while writing it', async () => {
  expect(existsSync(path.join(REPO, 'dist/cli/main.js')), 'run npm run build first').toBe(true);
  const before = await manifests('before', 'a');
  const after = await manifests('after', 'b');
  const golden = path.join(dir, 'golden');
  const fresh = path.join(dir, 'fresh');
  expect((await update(before, golden)).code).toBe(0);
  expect((await update(after, fresh)).code).toBe(0);
  const oldBytes = await readFile(path.join(golden, GOLDEN));
  const newBytes = await readFile(path.join(fresh, GOLDEN));
  const oldStat = await stat(path.join(golden, GOLDEN));

  // The write shows as a temporary file beside the golden, or as the golden itself changing.
  const run = await update(after, golden, async () => {
    const entries = await readdir(golden);
    if (entries.some((e) => e.endsWith('.cosi-tmp'))) return true;
    const now = await stat(path.join(golden, GOLDEN)).catch(() => undefined);
    return now === undefined || now.size !== oldStat.size || now.mtimeMs !== oldStat.mtimeMs;
  });

  expect(run.interrupted, 'the run ended before its write could be interrupted').toBe(true);
  const bytes = await readFile(path.join(golden, GOLDEN));
  const whole = bytes.equals(oldBytes) ? 'old' : bytes.equals(newBytes) ? 'new' : 'partial';
  expect(whole, `the golden file has ${bytes.length} bytes`).not.toBe('partial');

  // The interrupted run's temporary file, if it left one, goes with the next --update.
  expect((await update(after, golden)).code).toBe(0);
  expect((await readdir(golden)).sort()).toEqual(['.cosi-goldens.json', GOLDEN]);
  expect((await readFile(path.join(golden, GOLDEN))).equals(newBytes)).toBe(true);
}, 180_000);

it("removes the temporary file an interrupted write left, and no running process's", async () => {
  const golden = path.join(dir, 'leftovers');
  await mkdir(golden);
  // As a run killed while it wrote leaves it: its process is gone.
  const gone = spawn(process.execPath, ['-e', '']);
  const pid = await new Promise<number>((resolve) => gone.on('exit', () => resolve(gone.pid ?? 0)));
  const left = `.${GOLDEN}.${pid}.1.cosi-tmp`;
  // Another cosi still writing: this very process.
  const live = `.${GOLDEN}.${process.pid}.1.cosi-tmp`;
  await writeFile(path.join(golden, left), 'partial');
  await writeFile(path.join(golden, live), 'being written');
  await writeFile(path.join(golden, '.notes.1.1.tmp'), 'mine');

  expect((await update(path.join(REPO, 'fixtures/minimal'), golden)).code).toBe(0);

  expect((await readdir(golden)).sort()).toEqual(
    ['.cosi-goldens.json', live, '.notes.1.1.tmp', GOLDEN].sort(),
  );
}, 60_000);
