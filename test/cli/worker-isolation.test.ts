/**
 * A project's code runs in a worker thread the main thread supervises: a controller stuck in a
 * loop that never yields is stopped at `--timeout` and named with its resource, one that runs out
 * of heap is a finding naming it, and `process.exit` inside one is a finding, never cosi's exit
 * code. Real processes, each killed if it outlives its bound.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { runCosi, type CosiRun } from '../support/cosi-process.js';
import { waitFor } from '../support/wait-for.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-worker-isolation-'));
  await writeFile(
    path.join(dir, 'vms.yaml'),
    'metadata: { type: VMs.example.org, id: web-1 }\nspec: { cpus: 2 }\n',
  );
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const HEADER = `import { defineConfig, defineResource } from 'cosi';
const VM = defineResource<{ cpus: number }>({ type: 'VMs.example.org' });
`;

/** A queue controller over the VMs whose reconcile is `body`. */
const reconciling = (name: string, body: string): string =>
  `export default defineConfig({ definitions: [VM], controllers: [{ name: '${name}', settings: { inputs: [{ namespace: 'default', type: 'VMs.example.org', kind: 'primary' }], outputs: [] }, mapInput: async () => [], reconcile: () => { ${body} } } as never] });
`;

async function cosi(
  config: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CosiRun & { ms: number }> {
  await writeFile(path.join(dir, 'cosi.config.ts'), HEADER + config);
  const started = performance.now();
  const run = await runCosi(args, dir, 60_000, env);
  return { ...run, ms: performance.now() - started };
}

describe('a controller stuck in a loop that never yields', () => {
  const spinner = reconciling('Spinner', 'for (;;);');

  it('is stopped at check --timeout, named with its resource, as a run that did not converge', async () => {
    await writeFile(
      path.join(dir, 'vms.yaml'),
      '# one VM\n---\nmetadata: { type: VMs.example.org, id: web-1 }\nspec: { cpus: 2 }\n',
    );
    const r = await cosi(spinner, ['check', '-f', 'vms.yaml', '--timeout', '3s']);
    expect(r.stdout).toMatch(
      /Controller "Spinner" \(on VMs\.example\.org\(default\/web-1\)\) was still running after 3(\.\d+)?s without ever yielding/,
    );
    // At the manifest of the resource it was stuck on, as a check's other findings about a
    // resource are.
    expect(r.stdout).toMatch(/^vms\.yaml:3:1: error\[controller-failed\]: Controller "Spinner"/m);
    expect(r.stdout).toMatch(
      /^vms\.yaml:3:1: error\[not-converged\]: the controllers did not converge \(max-time\)/m,
    );
    expect(r.code).toBe(3);
    // The bound, not the test's kill: well before the 60 s default.
    expect(r.ms).toBeLessThan(30_000);
  }, 60_000);

  it('on a resource no manifest holds is placed at the config', async () => {
    // The stuck controller's input is what another controller wrote.
    const r = await cosi(
      `const Copy = defineResource<{ cpus: number }>({ type: 'Copies.example.org' });
export default defineConfig({ definitions: [VM, Copy], controllers: [
  { name: 'Copier', settings: { inputs: [{ namespace: 'default', type: 'VMs.example.org', kind: 'primary' }], outputs: [{ type: 'Copies.example.org', kind: 'exclusive' }] }, mapInput: async () => [], reconcile: async (rt: any, pointer: any) => { await rt.modify(Copy.create(pointer.id, { cpus: 1 }), () => undefined); } },
  { name: 'Spinner', settings: { inputs: [{ namespace: 'default', type: 'Copies.example.org', kind: 'primary' }], outputs: [] }, mapInput: async () => [], reconcile: () => { for (;;); } },
] as never });
`,
      ['check', '-f', 'vms.yaml', '--timeout', '3s'],
    );
    expect(r.stdout).toMatch(
      /^cosi\.config\.ts: error\[controller-failed\]: Controller "Spinner" \(on Copies\.example\.org\(default\/web-1\)\)/m,
    );
    expect(r.code).toBe(3);
  }, 60_000);

  it('still gets a report in the -o format CI reads, with the manifests checked before', async () => {
    const r = await cosi(spinner, ['check', '-f', 'vms.yaml', '--timeout', '3s', '-o', 'json']);
    const report = JSON.parse(r.stdout) as {
      failed: number;
      checks: { check: string }[];
      resources: { resources: number; files: number };
    };
    expect(report.failed).toBe(2);
    expect(report.checks.map((c) => c.check)).toEqual(['manifests', 'controllers', 'convergence']);
    expect(report.resources).toMatchObject({ resources: 1, files: 1 });
    expect(r.code).toBe(3);
  }, 60_000);

  it("keeps the manifests' findings beside its own, in every format", async () => {
    await writeFile(
      path.join(dir, 'other.yaml'),
      'metadata: { type: VMs.example.org, id: db, labels: { enabled: yes } }\nspec: { cpus: 1 }\n',
    );
    const args = ['check', '-f', 'vms.yaml', '-f', 'other.yaml', '--timeout', '2s', '--strict'];
    const text = await cosi(spinner, args);
    expect(text.stdout).toMatch(/^other\.yaml:1:\d+: warning\[yaml11-boolean\]/m);
    // Stuck on whichever VM it took first.
    expect(text.stdout).toMatch(
      /^(vms|other)\.yaml:1:1: error\[controller-failed\]: Controller "Spinner"/m,
    );
    expect(text.stdout).toMatch(/^manifests: 2 resources in 2 files: 1 valid, 1 invalid$/m);
    expect(text.code).toBe(3);
    const junit = await cosi(spinner, [...args, '-o', 'junit']);
    expect(junit.stdout).toMatch(/<testsuite name="manifests"/);
    expect(junit.stdout).toMatch(/yaml11-boolean/);
    expect(junit.code).toBe(3);
  }, 90_000);

  it('is stopped in apply too, said on stderr', async () => {
    const r = await cosi(spinner, ['apply', '-f', 'vms.yaml', '--timeout', '3s']);
    expect(r.stderr).toMatch(
      /^cosi: did not converge \(max-time\): Controller "Spinner" \(on VMs\.example\.org\(default\/web-1\)\) was still running after 3(\.\d+)?s/m,
    );
    expect(r.code).toBe(3);
  }, 60_000);

  it("in a whole-world controller's run, before its first event, is stopped at --timeout and named", async () => {
    const r = await cosi(
      `export default defineConfig({ definitions: [VM], controllers: [{ name: 'Looper', inputs: [{ namespace: 'default', type: 'VMs.example.org', kind: 'weak' }], outputs: [], run: async () => { for (;;); } } as never] });
`,
      ['check', '-f', 'vms.yaml', '--timeout', '3s'],
    );
    expect(r.stdout).toMatch(
      /^cosi\.config\.ts: error\[controller-failed\]: Controller "Looper" was still running after 3(\.\d+)?s without ever yielding/m,
    );
    expect(r.code).toBe(3);
    expect(r.ms).toBeLessThan(30_000);
  }, 60_000);

  it("in a whole-world transform's callback, is named with the input it was on and placed at its manifest", async () => {
    await writeFile(
      path.join(dir, 'two-vms.yaml'),
      'metadata: { type: VMs.example.org, id: web-1 }\nspec: { cpus: 2 }\n---\nmetadata: { type: VMs.example.org, id: web-2 }\nspec: { cpus: 4 }\n',
    );
    const r = await cosi(
      `import { createTransformController } from 'cosi';
const Net = defineResource<{ cpus: number }>({ type: 'Nets.example.org' });
export default defineConfig({ definitions: [VM, Net], controllers: [createTransformController({
  name: 'NetFromVM', input: VM, output: Net,
  mapMetadata: (vm) => Net.create(vm.metadata.id),
  transform: (_ctx, vm, net) => { if (vm.metadata.id === 'web-2') for (;;); net.spec.cpus = vm.spec.cpus; },
})] });
`,
      ['check', '-f', 'two-vms.yaml', '--timeout', '3s'],
    );
    expect(r.stdout).toMatch(
      /^two-vms\.yaml:4:1: error\[controller-failed\]: Controller "NetFromVM" \(on VMs\.example\.org\(default\/web-2\)\) was still running after 3(\.\d+)?s without ever yielding/m,
    );
    expect(r.code).toBe(3);
  }, 60_000);

  it('with several reconciles in flight, is named with the resource its loop is on and the line it spins at', async () => {
    // Three reconciles start (concurrency 3) and each awaits its output's read before its
    // transform runs: web-1's resumes first and spins, after web-3's started last.
    await writeFile(
      path.join(dir, 'three-vms.yaml'),
      ['web-1', 'web-2', 'web-3']
        .map((id) => `metadata: { type: VMs.example.org, id: ${id} }\nspec: { cpus: 2 }\n`)
        .join('---\n'),
    );
    const config = `import { createQTransformController } from 'cosi';
const Net = defineResource<{ cpus: number }>({ type: 'Nets.example.org' });
export default defineConfig({ definitions: [VM, Net], controllers: [createQTransformController({
  name: 'NetFromVM', input: VM, output: Net,
  mapMetadata: (vm) => Net.create(vm.metadata.id),
  unmapMetadata: (net) => VM.pointer(net.metadata.id),
  transform: async (_ctx, vm, net) => { net.spec.cpus = vm.spec.cpus; if (vm.metadata.id === 'web-1') for (;;); },
}, { concurrency: 3 })] });
`;
    const lines = (HEADER + config).split('\n');
    const line = lines.findIndex((text) => text.includes('for (;;)')) + 1;
    const col = (lines[line - 1] ?? '').indexOf('for (;;)') + 1;
    const r = await cosi(config, ['check', '-f', 'three-vms.yaml', '--timeout', '3s']);
    expect(r.stdout).toMatch(
      new RegExp(
        `^three-vms\\.yaml:1:1: error\\[controller-failed\\]: Controller "NetFromVM" \\(on VMs\\.example\\.org\\(default/web-1\\)\\) was still running after 3(\\.\\d+)?s without ever yielding, at cosi\\.config\\.ts:${line}:${col} `,
        'm',
      ),
    );
    expect(r.code).toBe(3);
  }, 60_000);

  it("in a controller's mapEvent is stopped at --timeout, named with the event's resource", async () => {
    const r = await cosi(
      `export default defineConfig({ definitions: [VM], controllers: [{ name: 'Router', settings: { inputs: [{ namespace: 'default', type: 'VMs.example.org', kind: 'primary' }], outputs: [] }, mapEvent: () => { for (;;); }, reconcile: async () => {} } as never] });
`,
      ['check', '-f', 'vms.yaml', '--timeout', '3s'],
    );
    expect(r.stdout).toMatch(
      /^vms\.yaml:1:1: error\[controller-failed\]: Controller "Router" \(on VMs\.example\.org\(default\/web-1\)\) was still running after 3(\.\d+)?s/m,
    );
    expect(r.code).toBe(3);
    expect(r.ms).toBeLessThan(30_000);
  }, 60_000);

  it('in the config itself is a configuration error, at --timeout but never before 5 s', async () => {
    await writeFile(path.join(dir, 'loop.ts'), 'for (;;);\nexport {};\n');
    const r = await cosi(`import './loop.ts';\n${reconciling('Fine', 'return;')}`, [
      'check',
      '-f',
      'vms.yaml',
      '--timeout',
      '1s',
    ]);
    expect(r.stdout).toMatch(
      /^cosi\.config\.ts: error\[config-error\]: The config \(while it loaded\) was still running after 5(\.\d+)?s/m,
    );
    expect(r.code).toBe(2);
  }, 60_000);
});

describe('a controller that exhausts the heap', () => {
  it('is a finding naming it, not an abort of cosi', async () => {
    const r = await cosi(
      reconciling(
        'Hog',
        'const kept: number[][] = []; for (;;) kept.push(new Array(100_000).fill(1));',
      ),
      ['check', '-f', 'vms.yaml'],
      { COSI_WORKER_HEAP_MB: '48' },
    );
    expect(r.stdout).toMatch(
      /Controller "Hog" \(on VMs\.example\.org\(default\/web-1\)\) ran out of memory \(the heap limit is 48 MB/,
    );
    expect(r.code).toBe(1);
  }, 60_000);
});

describe('cosi itself running out of heap in its own work', () => {
  it('is an internal error, exit 70, apart from a usage or config error (2)', async () => {
    // 11 MB of ConfigMaps, read with a 24 MB heap: no code of the project's runs.
    const documents = Array.from(
      { length: 60_000 },
      (_, i) =>
        `---\napiVersion: v1\nkind: ConfigMap\nmetadata: { name: c${String(i)}, namespace: d }\ndata: { a: "${'x'.repeat(100)}" }\n`,
    );
    await writeFile(path.join(dir, 'big.yaml'), documents.join(''));
    const env = { COSI_WORKER_HEAP_MB: '24' };
    const check = await runCosi(['check', '-f', 'big.yaml', '-o', 'json'], dir, 60_000, env);
    const report = JSON.parse(check.stdout) as {
      cases: { check: string; findings: { code: string; message: string }[] }[];
    };
    expect(report.cases.map((c) => [c.check, c.findings.map((f) => f.code)])).toEqual([
      ['setup', ['internal-error']],
    ]);
    expect(report.cases[0]?.findings[0]?.message).toMatch(
      /^cosi ran out of memory \(the heap limit is 24 MB/,
    );
    expect(check.code).toBe(70);
    const apply = await runCosi(['apply', '-f', 'big.yaml'], dir, 60_000, env);
    expect(apply.stderr).toMatch(/^cosi: cosi ran out of memory/m);
    expect(apply.code).toBe(70);
  }, 90_000);
});

describe('process.exit inside a controller in the worker', () => {
  it('is a finding and never the exit code', async () => {
    const r = await cosi(reconciling('Quitter', 'process.exit(0);'), ['check', '-f', 'vms.yaml']);
    expect(r.stdout).toMatch(/Quitter .*called process\.exit\(0\)/);
    expect(r.code).toBe(1);
  }, 60_000);

  it('taken before cosi could guard it ends only the worker, and is a finding', async () => {
    // `exit` captured when the config loads, and called later from the reconcile: not the guard.
    const r = await cosi(
      `const exit = (process as unknown as { reallyExit: (code: number) => never }).reallyExit;\n${reconciling('Quitter', 'exit(0);')}`,
      ['check', '-f', 'vms.yaml'],
    );
    expect(r.stdout).toMatch(
      /Controller "Quitter" \(on VMs\.example\.org\(default\/web-1\)\) ended cosi's worker thread/,
    );
    expect(r.code).toBe(1);
  }, 60_000);

  it("taken before cosi could guard it, in a whole-world controller's run, names the controller", async () => {
    const r = await cosi(
      `const exit = (process as unknown as { reallyExit: (code: number) => never }).reallyExit;
export default defineConfig({ definitions: [VM], controllers: [{ name: 'Quitter', inputs: [{ namespace: 'default', type: 'VMs.example.org', kind: 'weak' }], outputs: [], run: async () => { exit(0); } } as never] });
`,
      ['check', '-f', 'vms.yaml'],
    );
    expect(r.stdout).toMatch(
      /^cosi\.config\.ts: error\[controller-failed\]: Controller "Quitter" ended cosi's worker thread/m,
    );
    expect(r.code).toBe(1);
  }, 60_000);
});

describe('a value the project throws where nothing awaits it', () => {
  /** A whole-world controller of VMs whose run is `body`, then waits a moment. */
  const running = (body: string): string =>
    `export default defineConfig({ definitions: [VM], controllers: [{ name: 'Dropper', inputs: [{ namespace: 'default', type: 'VMs.example.org', kind: 'weak' }], outputs: [], run: async () => { ${body}; await new Promise((r) => setTimeout(r, 200)); } } as never] });
`;

  it.each([
    [
      'a null-prototype object from a timer',
      'setTimeout(() => { throw Object.create(null); })',
      /a non-Error object/,
    ],
    [
      'an Error from a timer',
      "setTimeout(() => { throw new RangeError('late'); })",
      /RangeError: late \(at .*cosi\.config\.ts:\d+:\d+\)$/,
    ],
    [
      'a promise rejected and dropped',
      "void Promise.reject(new Error('dropped'))",
      /dropped \(at .*cosi\.config\.ts:\d+:\d+\)$/,
    ],
  ])(
    '%s is a finding naming the controller, with no stack',
    async (_name, body, message) => {
      const r = await cosi(running(body), ['check', '-f', 'vms.yaml']);
      const line = r.stdout.split('\n')[0] ?? '';
      expect(line).toMatch(
        /^cosi\.config\.ts: error\[controller-failed\]: Controller "Dropper" threw where nothing awaited it/,
      );
      expect(line).toMatch(message);
      expect(r.stderr).not.toMatch(/^\s+at |Node\.js v|ProcessExitError/m);
      expect(r.code).toBe(1);
    },
    60_000,
  );

  it('from a timer a reconcile set, firing after the run converged, fails the check (not lost with the worker)', async () => {
    const r = await cosi(
      reconciling('Late', "setTimeout(() => { throw new Error('background failure'); }, 50);"),
      ['check', '-f', 'vms.yaml'],
    );
    expect(r.stdout).toMatch(
      /^vms\.yaml:1:1: error\[controller-failed\]: Controller "Late" \(on VMs\.example\.org\(default\/web-1\)\) threw where nothing awaited it .*: background failure \(at cosi\.config\.ts:\d+:\d+\)$/m,
    );
    expect(r.stdout).toMatch(/^manifests: 1 resource in 1 file: 1 valid, 0 invalid$/m);
    expect(r.code).toBe(1);
  }, 60_000);

  it('from a timer one controller set while another runs names the one that set it', async () => {
    // Early queues the throw and ends; Busy is reconciling (awaiting) when it fires.
    const r = await cosi(
      `export default defineConfig({ definitions: [VM], controllers: [
  { name: 'Early', settings: { inputs: [{ namespace: 'default', type: 'VMs.example.org', kind: 'primary' }], outputs: [] }, mapInput: async () => [], reconcile: async () => { await new Promise((r) => setTimeout(r, 20)); setTimeout(() => { throw new Error('queued by Early'); }, 200); } },
  { name: 'Busy', settings: { inputs: [{ namespace: 'default', type: 'VMs.example.org', kind: 'primary' }], outputs: [] }, mapInput: async () => [], reconcile: async () => { await new Promise((r) => setTimeout(r, 100)); } },
] as never });
`,
      ['check', '-f', 'vms.yaml'],
    );
    expect(r.stdout).toMatch(/error\[controller-failed\]: Controller "Early" .*queued by Early/);
    expect(r.code).toBe(1);
  }, 60_000);

  it("from a timer of the config's module is a configuration error", async () => {
    const r = await cosi(
      `setTimeout(() => { throw new TypeError('late'); });
export default defineConfig({ definitions: [VM], setup: async () => { await new Promise((r) => setTimeout(r, 200)); } });
`,
      ['check', '-f', 'vms.yaml'],
    );
    expect(r.stdout).toMatch(
      /^cosi\.config\.ts: error\[config-error\]: The config \(while it loaded\) threw where nothing awaited it .*: TypeError: late \(at .*cosi\.config\.ts:3:\d+\)$/m,
    );
    expect(r.stderr).not.toMatch(/^\s+at |Node\.js v|ProcessExitError/m);
    expect(r.code).toBe(2);
  }, 60_000);

  it("thrown by cosi's own code for a call the project did not await is placed at that call", async () => {
    // complete() not awaited: the builder's error (no for()) rejects a promise nothing awaits.
    await writeFile(path.join(dir, 'vms.yaml'), 'metadata: { type: VMs.example.org, id: a }\n');
    const r = await cosi(
      `import { controllerManagedBy } from 'cosi';
export default defineConfig({ definitions: [VM], setup: (rt) => {
  void controllerManagedBy(rt).owns(VM).complete(async () => {});
} });
`,
      ['check', '-f', 'vms.yaml'],
    );
    expect(r.stdout).toMatch(
      /^cosi\.config\.ts: error\[config-error\]: .*BuilderError: one of for\(\) or named\(\) must be called.* \(at .*cosi\.config\.ts:\d+:\d+\)$/m,
    );
    expect(r.stdout).not.toMatch(/\(at [^)]*(dist|src)\/[^)]*\)/);
    expect(r.code).toBe(2);
  }, 60_000);
});

describe("a message the project's code posts on the worker's port (parentPort)", () => {
  /** A config that posts `message` from its module, and a controller that posts it in a reconcile. */
  const posting = (message: string): string =>
    `import { parentPort } from 'node:worker_threads';\nparentPort?.postMessage(${message});\n${reconciling('Poster', `parentPort?.postMessage(${message});`)}`;

  it.each(['null', "'ready'", '{ type: "ready" }'])(
    "that is not one of cosi's (%s) is ignored: the check runs as without it",
    async (message) => {
      const r = await cosi(posting(message), ['check', '-f', 'vms.yaml']);

      expect(r.stderr).not.toMatch(/TypeError|internal error|^\s+at /m);
      expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed$/);
      expect(r.code).toBe(0);
    },
  );

  it("of cosi's kinds but not its shape stops the worker as the project's fault, never a crash", async () => {
    const r = await cosi(posting("{ kind: 'output', chunks: 5 }"), ['check', '-f', 'vms.yaml']);

    expect(r.stderr).not.toMatch(/internal error|^\s+at /m);
    expect(r.stdout).toMatch(
      /^cosi\.config\.ts: error\[config-error\]: The project's code posted a message on the worker's port \(parentPort\) that cosi cannot read/m,
    );
    expect(r.code).toBe(2);
  });
});

describe('a watch session whose round gets stuck', () => {
  it('shows the stuck controller as its round, starts again on the next edit of the project (not of a log beside it) numbering on, and ends on SIGINT', async () => {
    await writeFile(path.join(dir, 'cosi.config.ts'), HEADER + reconciling('Spinner', 'for (;;);'));
    const child = spawn(
      process.execPath,
      [
        path.resolve(import.meta.dirname, '../../bin/cosi.js'),
        'watch',
        '-f',
        'vms.yaml',
        '--timeout',
        '3s',
      ],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await waitFor(
        () =>
          /^round 1: started \| stopped: did not converge \(max-time\): Controller "Spinner" \(on VMs\.example\.org\(default\/web-1\)\)/m.test(
            stdout,
          ),
        30_000,
        () => `the stuck round (stdout so far: ${stdout})`,
      );
      await waitFor(
        () => stdout.includes('waiting for a file to change to start again'),
        30_000,
        () => `the watch of the files (stdout so far: ${stdout})`,
      );
      // A log written beside the project is no change of it: it neither restarts nor is named.
      await writeFile(path.join(dir, 'watch.log'), 'round 1: stopped\n');
      await writeFile(path.join(dir, 'cosi.config.ts'), HEADER + reconciling('Spinner', 'return;'));
      await waitFor(
        () =>
          /^round 2: cosi\.config\.ts changed: restarted on a fresh state \| converged/m.test(
            stdout,
          ),
        30_000,
        () => `a converged round after the edit (stdout so far: ${stdout})`,
      );
      await writeFile(
        path.join(dir, 'vms.yaml'),
        'metadata: { type: VMs.example.org, id: web-1 }\nspec: { cpus: 4 }\n',
      );
      await waitFor(
        () => /^round 3: vms\.yaml changed \|/m.test(stdout),
        30_000,
        () => `the next round numbered on (stdout so far: ${stdout})`,
      );
      expect(stdout).not.toMatch(/^round 1: started \| (?!stopped)/m);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 90_000);
});
