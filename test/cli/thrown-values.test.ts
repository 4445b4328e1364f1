/**
 * Whatever a controller throws becomes a `controller-failed` (a queue controller's item: a
 * `reconcile-failed`) finding: values that are not
 * errors, and errors that cannot be read safely (a throwing `toString`, a null prototype, a
 * Proxy whose traps throw), never crash `cosi check`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-thrown-values-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A project whose one controller (a whole-world one, or a queue one) throws `thrown`. */
async function projectThrowing(thrown: string, kind: 'controller' | 'qcontroller'): Promise<void> {
  const controller =
    kind === 'controller'
      ? `{ name: 'Thrower', inputs: [{ namespace: 'default', type: 'VMs.example.org', kind: 'weak' }], outputs: [], run: async () => { throw ${thrown}; } }`
      : `{ name: 'Thrower', settings: { inputs: [{ namespace: 'default', type: 'VMs.example.org', kind: 'primary' }], outputs: [] }, mapInput: async () => [], reconcile: async () => { throw ${thrown}; } }`;
  await writeFile(
    path.join(dir, 'cosi.config.ts'),
    `import { defineConfig, defineResource } from 'cosi';
const VM = defineResource<{ cpus: number }>({ type: 'VMs.example.org' });
export default defineConfig({ definitions: [VM], controllers: [${controller} as never] });
`,
  );
  await writeFile(
    path.join(dir, 'vms.yaml'),
    'metadata: { type: VMs.example.org, id: web-1 }\nspec: { cpus: 2 }\n',
  );
}

const SHAPES: [string, string, RegExp][] = [
  ['a null-prototype object', 'Object.create(null)', /a non-Error object with a null prototype/],
  [
    'an object whose toString throws',
    "{ toString() { throw new Error('no'); } }",
    /a non-Error object/,
  ],
  [
    'a Proxy whose traps throw',
    "new Proxy(new Error('x'), { get() { throw new Error('trap'); }, getPrototypeOf() { throw new Error('trap'); } })",
    /a Proxy \(not an Error\)/,
  ],
  [
    'an Error whose message getter throws',
    "Object.defineProperty(new Error('x'), 'message', { get() { throw new Error('getter'); } })",
    /an Error whose message cannot be read/,
  ],
  ['a number', '42', /: 42$/],
  ['undefined', 'undefined', /: undefined$/],
  ['a symbol', "Symbol('s')", /: Symbol\(s\)$/],
];

describe.each([
  ['controller', 'controller-failed'],
  ['qcontroller', 'reconcile-failed'],
] as const)('a %s that throws', (kind, code) => {
  it.each(SHAPES)(
    `%s is a ${code} finding and check exits 1`,
    async (_name, thrown, message) => {
      await projectThrowing(thrown, kind);
      const r = await cli(['check', '-f', 'vms.yaml', '-o', 'json'], { cwd: dir });
      expect(r.stderr).not.toMatch(/internal error/);
      expect(r.code).toBe(1);
      const findings = (
        JSON.parse(r.stdout) as { cases: { findings: { code: string; message: string }[] }[] }
      ).cases.flatMap((c) => c.findings);
      const failed = findings.find((f) => f.code === code);
      expect(failed?.message).toMatch(message);
    },
    30_000,
  );
});
