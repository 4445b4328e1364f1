import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getHeapStatistics } from 'node:v8';
import {
  launchProjectWorker,
  processHeapMb,
  workerHeapLimit,
} from '../../src/app/worker-launch.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-worker-launch-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A worker script that posts its data back, then what it is sent, until sent `end`. */
async function echoScript(): Promise<string> {
  const file = path.join(dir, 'echo.cjs');
  await writeFile(
    file,
    `const { parentPort, workerData } = require('node:worker_threads');
parentPort.postMessage({ kind: 'data', data: workerData.data, heartbeat: workerData.heartbeat instanceof SharedArrayBuffer });
parentPort.on('message', (m) => { if (m === 'end') process.exit(3); parentPort.postMessage({ kind: 'echo', m }); });
`,
  );
  return file;
}

describe('a project worker launched before its supervisor', () => {
  it('keeps what it did until taken, then hands it over in order, and the rest as it comes', async () => {
    const launched = launchProjectWorker(await echoScript(), { argv: ['check'] }, 64);
    // The supervisor is late: the worker has posted already.
    launched.worker.postMessage('early');
    launched.worker.postMessage('end');
    await once(launched.worker, 'exit');

    const seen: unknown[] = [];
    launched.take({
      message: (message) => seen.push(message),
      error: (error) => seen.push({ error }),
      exit: (code) => seen.push({ exit: code }),
    });
    expect(seen).toEqual([
      { kind: 'data', data: { argv: ['check'] }, heartbeat: true },
      { kind: 'echo', m: 'early' },
      { exit: 3 },
    ]);
    expect(launched.heapMb).toBe(64);
  });

  it('delivers live once taken, and is taken once', async () => {
    const launched = launchProjectWorker(await echoScript(), 'x', 64);
    const seen: unknown[] = [];
    const exited = new Promise<number>((resolve) => {
      launched.take({
        message: (message) => {
          seen.push(message);
          if ((message as { kind: string }).kind === 'data') launched.worker.postMessage('end');
        },
        error: (error) => seen.push({ error }),
        exit: resolve,
      });
    });
    expect(await exited).toBe(3);
    expect(seen).toEqual([{ kind: 'data', data: 'x', heartbeat: true }]);
    expect(() => {
      launched.take({ message: () => undefined, error: () => undefined, exit: () => undefined });
    }).toThrow(/taken once/);
  });

  it('without a limit given, has the heap the main thread has (V8 sizes both alike)', async () => {
    const file = path.join(dir, 'heap.cjs');
    await writeFile(
      file,
      `require('node:worker_threads').parentPort.postMessage(require('node:v8').getHeapStatistics().heap_size_limit);`,
    );
    expect(workerHeapLimit({})).toBeUndefined();
    expect(workerHeapLimit({ COSI_WORKER_HEAP_MB: '48' })).toBe(48);
    expect(workerHeapLimit({ COSI_WORKER_HEAP_MB: 'lots' })).toBeUndefined();
    const launched = launchProjectWorker(file, undefined, undefined);
    const [limit] = (await once(launched.worker, 'message')) as [number];
    await launched.worker.terminate();
    expect(limit).toBe(getHeapStatistics().heap_size_limit);
    expect(launched.heapMb).toBe(processHeapMb());
    expect(processHeapMb()).toBe(Math.round(limit / 2 ** 20));
  });
});
