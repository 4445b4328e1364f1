import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import type { ChromeTrace, TraceEvent } from '../../src/cli/render/trace/chrome-trace.js';
import { temporaryDirectory } from '../support/temporary-directory.js';
import { cli, REPO } from './run-cli.js';

async function traceOf(
  args: string[],
): Promise<{ code: number; trace: ChromeTrace; text: string }> {
  const dir = await temporaryDirectory('cosi-trace-');
  const file = path.join(dir, 'trace.json');
  const { code } = await cli([...args, '--trace', file, '-q']);
  const text = await readFile(file, 'utf8');
  return { code, trace: JSON.parse(text) as ChromeTrace, text };
}

const slices = (trace: ChromeTrace): TraceEvent[] => trace.traceEvents.filter((e) => e.ph === 'X');

describe('--trace', () => {
  it('writes a Chrome trace: a named track per controller and a slice per reconcile, named by its item', async () => {
    const { code, trace } = await traceOf(['apply', '-f', 'fixtures/vm-network', '--stable']);
    expect(code).toBe(0);
    expect(trace.displayTimeUnit).toBe('ms');
    expect(trace.otherData.clock).toBe('logical');
    const tracks = trace.traceEvents
      .filter((e) => e.ph === 'M' && e.name === 'thread_name')
      .map((e) => e.args?.['name']);
    expect(tracks).toEqual(
      expect.arrayContaining([
        'HostStatusController',
        'PlacementController',
        'vmnet.NetworkConfigController',
      ]),
    );
    expect(slices(trace).map((s) => s.name)).toContain('VMs.example.org(default/web-1)');
    const named = new Set(trace.traceEvents.filter((e) => e.ph === 'M').map((e) => e.tid));
    for (const slice of slices(trace)) expect(named.has(slice.tid)).toBe(true);
  });

  it('nests the slices of each track: none overlaps another on its track', async () => {
    const { trace } = await traceOf(['apply', '-f', 'fixtures/vm-network', '--stable']);
    const byTrack = new Map<number, TraceEvent[]>();
    for (const slice of slices(trace)) {
      const list = byTrack.get(slice.tid as number) ?? [];
      list.push(slice);
      byTrack.set(slice.tid as number, list);
    }
    for (const list of byTrack.values()) {
      const sorted = [...list].sort((a, b) => (a.ts as number) - (b.ts as number));
      for (let i = 1; i < sorted.length; i++) {
        const before = sorted[i - 1] as TraceEvent;
        const after = sorted[i] as TraceEvent;
        const beforeEnd = (before.ts as number) + (before.dur as number);
        const afterEnd = (after.ts as number) + (after.dur as number);
        // Either after the one before, or wholly inside it.
        expect((after.ts as number) >= beforeEnd || afterEnd <= beforeEnd).toBe(true);
      }
    }
  });

  it('joins every flow arrow to a write and a reconcile that read that version', async () => {
    const { trace } = await traceOf(['apply', '-f', 'fixtures/vm-network', '--stable']);
    const starts = trace.traceEvents.filter((e) => e.ph === 's');
    const ends = new Map(trace.traceEvents.filter((e) => e.ph === 'f').map((e) => [e.id, e]));
    expect(starts.length).toBeGreaterThan(0);
    const sliceAt = (event: TraceEvent): TraceEvent | undefined =>
      slices(trace).find(
        (s) =>
          s.tid === event.tid &&
          (s.ts as number) <= (event.ts as number) &&
          (event.ts as number) <= (s.ts as number) + (s.dur as number),
      );
    for (const start of starts) {
      const end = ends.get(start.id) as TraceEvent;
      expect(end).toBeDefined();
      const writer = sliceAt(start);
      const reader = slices(trace).find((s) => s.tid === end.tid && s.ts === end.ts);
      const written = (writer?.args?.['writes'] as { resource: string }[]).map((w) => w.resource);
      expect(written).toContain(start.name);
      expect(reader?.args?.['reads']).toContain(start.name);
      expect(reader?.args?.['triggers']).toContain(start.name);
    }
  });

  it('counts queue depth per queue controller', async () => {
    const { trace } = await traceOf(['apply', '-f', 'fixtures/vm-network', '--stable']);
    const counters = trace.traceEvents.filter((e) => e.ph === 'C');
    expect(counters.map((c) => c.name)).toContain('queue PlacementController');
    expect(counters.every((c) => typeof c.args?.['depth'] === 'number')).toBe(true);
  });

  it('is the same file on every run with --stable', async () => {
    const first = await traceOf(['check', '-f', 'fixtures/vm-network', '--stable']);
    const second = await traceOf(['check', '-f', 'fixtures/vm-network', '--stable']);
    expect(first.code).toBe(0);
    expect(second.text).toBe(first.text);
  });

  it('changes no output: apply prints the same with and without --trace', async () => {
    const dir = await temporaryDirectory('cosi-trace-');
    const args = ['apply', '-f', 'fixtures/vm-network', '--stable'];
    const plain = await cli(args);
    const traced = await cli([...args, '--trace', path.join(dir, 'trace.json')]);
    expect(traced).toEqual(plain);
  });

  it('is written by watch after its first round, and the watch exits 0 when interrupted', async () => {
    const dir = await temporaryDirectory('cosi-trace-');
    const file = path.join(dir, 'watch.json');
    let interrupt: (() => void) | undefined;
    const running = runCli(['watch', '-f', 'fixtures/vm-network', '--stable', '--trace', file], {
      stdout: { write: () => true },
      stderr: { write: () => true },
      cwd: REPO,
      env: {},
      isTTY: false,
      onInterrupt: (handler) => {
        interrupt = handler;
        return () => undefined;
      },
    });
    await vi.waitFor(
      async () => {
        const trace = JSON.parse(await readFile(file, 'utf8')) as ChromeTrace;
        expect(slices(trace).length).toBeGreaterThan(0);
      },
      { timeout: 10_000, interval: 100 },
    );
    await vi.waitFor(() => expect(interrupt).toBeDefined(), { timeout: 10_000 });
    interrupt?.();
    expect(await running).toBe(0);
  });
  it.each(['apply', 'check'])(
    "%s names a Kubernetes object's written fields as its document does, as explain does",
    async (command) => {
      const { trace } = await traceOf([command, '-f', 'fixtures/kro-webapp', '--stable']);
      const writes = slices(trace).flatMap(
        (s) => (s.args?.['writes'] ?? []) as { resource: string; fields: string[] }[],
      );
      const deployment = writes.find((w) => w.resource === 'Deployments.apps(default/shop)@1');
      expect(deployment?.fields).toContain('/spec/replicas');
      expect(deployment?.fields).toContain('/metadata/labels/app');
      const status = writes.find((w) => w.resource === 'WebApps.kro.run(default/shop)@3');
      expect(status?.fields).toContain('/status/conditions');
      for (const w of writes)
        expect(w.fields.filter((f) => /^\/spec\/(spec|status)\//.test(f))).toEqual([]);
    },
  );
});

describe('get --trace', () => {
  it('records the run as apply --trace does: the same slices, the resources still printed', async () => {
    const dir = await temporaryDirectory('cosi-trace-get-');
    const file = path.join(dir, 'trace.json');
    const got = await cli(['get', 'vm', '-f', 'fixtures/vm-network', '--stable', '--trace', file]);
    expect(got.code).toBe(0);
    expect(got.stdout).toContain('web-1');
    const trace = JSON.parse(await readFile(file, 'utf8')) as ChromeTrace;
    const applied = await traceOf(['apply', '-f', 'fixtures/vm-network', '--stable']);
    expect(slices(trace).map((s) => s.name)).toEqual(slices(applied.trace).map((s) => s.name));
    expect(slices(trace).map((s) => s.name)).toContain('VMs.example.org(default/web-1)');
  });

  it('is refused where nothing runs once: with --state, with -w', async () => {
    const dir = await temporaryDirectory('cosi-trace-get-');
    const file = path.join(dir, 'trace.json');
    const state = await cli(['get', 'vm', '--state', 'memory', '--trace', file]);
    expect([state.code, state.stderr]).toEqual([
      2,
      'cosi: --trace: records a run of the project; with --state nothing runs\n',
    ]);
    const watched = await cli(['get', 'vm', '-f', 'fixtures/vm-network', '-w', '--trace', file]);
    expect(watched.code).toBe(2);
    expect(watched.stderr).toContain('cosi: --trace: records one run of the project');
  });
});

describe('explain --trace', () => {
  it('writes the run that explains the resource, as apply --trace records it', async () => {
    const dir = await temporaryDirectory('cosi-trace-explain-');
    const file = path.join(dir, 'trace.json');
    const explained = await cli([
      'explain',
      'vm',
      'web-1',
      '-f',
      'fixtures/vm-network',
      '--stable',
      '--trace',
      file,
    ]);
    expect(explained.code).toBe(0);
    expect(explained.stdout).toContain('web-1');
    const trace = JSON.parse(await readFile(file, 'utf8')) as ChromeTrace;
    const applied = await traceOf(['apply', '-f', 'fixtures/vm-network', '--stable']);
    expect(slices(trace).map((s) => s.name)).toEqual(slices(applied.trace).map((s) => s.name));
  });

  it("is refused with a type's documentation, which runs nothing", async () => {
    const dir = await temporaryDirectory('cosi-trace-explain-');
    const r = await cli([
      'explain',
      'vm',
      '-f',
      'fixtures/vm-network',
      '--trace',
      path.join(dir, 't.json'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cosi: --trace: records the run that explains a resource');
  });
});

describe('graph --trace', () => {
  it('writes the run of graph --resources, as apply --trace records it', async () => {
    const dir = await temporaryDirectory('cosi-trace-graph-');
    const file = path.join(dir, 'trace.json');
    const drawn = await cli([
      'graph',
      '-f',
      'fixtures/vm-network',
      '--resources',
      '--stable',
      '--trace',
      file,
    ]);
    expect(drawn.code).toBe(0);
    expect(drawn.stdout).toContain('web-1');
    const trace = JSON.parse(await readFile(file, 'utf8')) as ChromeTrace;
    const applied = await traceOf(['apply', '-f', 'fixtures/vm-network', '--stable']);
    expect(slices(trace).map((s) => s.name)).toEqual(slices(applied.trace).map((s) => s.name));
  });

  it('is refused where nothing runs: the controller graph alone, --state', async () => {
    const dir = await temporaryDirectory('cosi-trace-graph-');
    const file = path.join(dir, 't.json');
    for (const args of [
      ['-f', 'fixtures/vm-network'],
      ['--resources', '--state', 'memory'],
    ]) {
      const r = await cli(['graph', ...args, '--trace', file]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('cosi: --trace: records the run of graph --resources');
    }
  });
});

describe('report --trace', () => {
  it('writes the run the page reports, as check --trace does, beside the page', async () => {
    const dir = await temporaryDirectory('cosi-trace-report-');
    const file = path.join(dir, 'trace.json');
    const page = path.join(dir, 'report.html');
    const reported = await cli([
      'report',
      '-f',
      'fixtures/vm-network',
      '-o',
      page,
      '--stable',
      '--trace',
      file,
    ]);
    expect(reported.code).toBe(0);
    expect(await readFile(page, 'utf8')).toContain('<html');
    const trace = JSON.parse(await readFile(file, 'utf8')) as ChromeTrace;
    const checked = await traceOf(['check', '-f', 'fixtures/vm-network', '--stable']);
    expect(slices(trace).map((s) => s.name)).toEqual(slices(checked.trace).map((s) => s.name));
    expect(slices(trace).map((s) => s.name)).toContain('VMs.example.org(default/web-1)');
  });
});
