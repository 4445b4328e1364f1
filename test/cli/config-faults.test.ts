/**
 * A config that fails in any way is a one-line configuration error naming the file (exit 2),
 * never an internal error with a stack; `process.exit` called by the project's code is a finding
 * or that error, and the command's own exit code stands. Real processes: an exit is a process's.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCosi, type CosiRun } from '../support/cosi-process.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-config-faults-'));
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

/** A controller of VMs whose `run` is `body`. */
const controller = (body: string): string =>
  `{ name: 'Ctrl', inputs: [{ namespace: 'default', type: 'VMs.example.org', kind: 'weak' }], outputs: [], run: async () => { ${body} } } as never`;

async function check(config: string): Promise<CosiRun> {
  await writeFile(path.join(dir, 'cosi.config.ts'), HEADER + config);
  const r = await runCosi(['check', '-f', 'vms.yaml'], dir);
  return r;
}

/** The one line a configuration error is, on stderr. */
function expectConfigError(r: { code: unknown; stderr: string }, problem: RegExp): void {
  expect(r.stderr).not.toMatch(/internal error|^\s+at /m);
  expect(r.stderr).toMatch(
    new RegExp(`^cosi: cosi\\.config\\.ts(:\\d+:\\d+)?: ${problem.source}`, 'm'),
  );
  expect(r.code).toBe(2);
}

describe('a config that fails', () => {
  it('by throwing a null-prototype object at import is a one-line configuration error', async () => {
    const r = await check(
      'throw Object.create(null);\nexport default defineConfig({ definitions: [VM] });\n',
    );
    expectConfigError(r, /cannot load the config: a non-Error object with a null prototype/);
  });

  it('by exporting a Proxy whose traps throw is a one-line configuration error', async () => {
    const r = await check(
      "export default new Proxy({}, { get() { throw new Error('trap'); }, ownKeys() { throw new Error('trap'); } });\n",
    );
    expectConfigError(r, /cannot load the config: trap/);
  });

  it('by listing a controller whose properties throw is a one-line configuration error', async () => {
    const r = await check(
      "export default defineConfig({ definitions: [VM], controllers: [new Proxy({}, { get() { throw new Error('trap'); } }) as never] });\n",
    );
    expectConfigError(r, /the default export cannot be read: trap/);
  });

  it('by a setup that throws a value that is not an Error is a one-line configuration error', async () => {
    const r = await check(
      'export default defineConfig({ definitions: [VM], setup: () => { throw Object.create(null); } });\n',
    );
    expectConfigError(r, /setup failed: a non-Error object with a null prototype/);
  });

  it('in setup is placed where it threw: in the config, or in the module it imports', async () => {
    // The config's own line (the third: after the two of HEADER).
    const own = await check(
      "export default defineConfig({ definitions: [VM], setup: (rt) => { if (rt) throw new Error('nope'); } });\n",
    );
    expect(own.stderr).toMatch(/^cosi: cosi\.config\.ts:3:\d+: setup failed: nope$/m);
    // A builder chain in a module naming a type it does not import (a ReferenceError there).
    await mkdir(path.join(dir, 'controllers'));
    await writeFile(
      path.join(dir, 'controllers', 'setup.ts'),
      'export function setupAll(runtime: unknown): void {\n  if (runtime) {\n    void Servic;\n  }\n}\ndeclare const Servic: unknown;\n',
    );
    const module = await check(
      "import { setupAll } from './controllers/setup';\nexport default defineConfig({ definitions: [VM], setup: setupAll });\n",
    );
    expect(module.code).toBe(2);
    expect(module.stderr).toMatch(
      /^cosi: controllers\/setup\.ts:3:\d+: setup failed: Servic is not defined$/m,
    );
  });
});

describe("a config's builder chain", () => {
  it('calling a method the builder does not have names the method it likely meant', async () => {
    const r = await check(
      [
        "import { controllerManagedBy } from 'cosi';",
        'export default defineConfig({',
        '  definitions: [VM],',
        '  setup: (runtime) =>',
        '    controllerManagedBy(runtime)',
        '      .for(VM)',
        '      .own(VM)',
        '      .complete(async () => {}),',
        '});',
        '',
      ].join('\n'),
    );
    expectConfigError(
      r,
      /setup failed: controllerManagedBy\(\.\.\.\)\.for\(\.\.\.\)\.own is not a function \(the builder has no method own: did you mean owns\?\)$/,
    );
    expect(r.stderr).not.toContain('_cosi');
  });
});

describe('a config that does not parse', () => {
  /** `check -o json` of the config: its one setup finding, and stderr. */
  async function parseFinding(config: string): Promise<{
    finding: { code: string; file: string; line: number; col: number; message: string };
    findings: number;
    stderr: string;
    code: unknown;
  }> {
    await writeFile(path.join(dir, 'cosi.config.ts'), HEADER + config);
    const r = await runCosi(['check', '-f', 'vms.yaml', '-o', 'json'], dir);
    const report = JSON.parse(r.stdout) as {
      cases: { check: string; findings: Record<string, unknown>[] }[];
    };
    const findings = report.cases.flatMap((c) => c.findings);
    return {
      finding: findings[0] as never,
      findings: findings.length,
      stderr: r.stderr,
      code: r.code,
    };
  }

  it('is one finding at its file:line:col, the place said once and the message one line', async () => {
    // Line 3 (after the two lines of HEADER); the `;` where an expression goes is column 19.
    const r = await parseFinding(
      'const x: number = ;\nexport default defineConfig({ definitions: [VM] });\n',
    );

    expect(r.findings).toBe(1);
    expect(r.finding).toMatchObject({
      code: 'config-error',
      file: 'cosi.config.ts',
      line: 3,
      col: 19,
      message: 'cannot load the config: syntax error: Unexpected token ";"',
    });
    expect(r.stderr).toBe(
      'cosi: cosi.config.ts:3:19: cannot load the config: syntax error: Unexpected token ";"\n',
    );
    expect(r.code).toBe(2);
  });

  it('with several mistakes is a finding for each, each at its own key, and a line each on stderr', async () => {
    // Lines 3, 4 and 5 (after HEADER's two); each key written at column 3.
    await writeFile(
      path.join(dir, 'cosi.config.ts'),
      HEADER +
        'export default defineConfig({\n  definitions: [VM],\n  manifests: 5,\n  kubernetesVersion: 1.31,\n  setup: true,\n} as never);\n',
    );
    const json = await runCosi(['check', '-f', 'vms.yaml', '-o', 'json'], dir);
    const report = JSON.parse(json.stdout) as {
      cases: { findings: { code: string; file: string; line: number; col: number }[] }[];
    };
    const places = report.cases
      .flatMap((c) => c.findings)
      .map((f) => `${f.code} ${f.file}:${f.line}:${f.col}`)
      .sort();
    expect(places).toEqual([
      'config-error cosi.config.ts:5:3',
      'config-error cosi.config.ts:6:3',
      'config-error cosi.config.ts:7:3',
    ]);
    expect(json.code).toBe(2);
    const plain = await runCosi(['check', '-f', 'vms.yaml'], dir);
    const lines = plain.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => /cosi\.config\.ts:(\d+):3: /.exec(l)?.[1]).sort()).toEqual([
      '5',
      '6',
      '7',
    ]);
    expect(plain.stderr).toContain('cosi.config.ts:5:3: `manifests` must be an array');
    const github = await runCosi(['check', '-f', 'vms.yaml', '-o', 'github'], dir);
    const annotations = github.stdout.split('\n').filter((l) => l.startsWith('::error '));
    expect(annotations).toHaveLength(3);
    for (const line of ['5', '6', '7']) {
      expect(annotations.some((a) => a.includes(`file=cosi.config.ts,line=${line},col=3`))).toBe(
        true,
      );
    }
  });

  it('in a module the config imports is placed in that module, at its line and column', async () => {
    await writeFile(path.join(dir, 'lib.ts'), 'export const a = {;\n');
    const r = await parseFinding(
      "import './lib.ts';\nexport default defineConfig({ definitions: [VM] });\n",
    );

    expect(r.findings).toBe(1);
    expect(r.finding).toMatchObject({
      code: 'config-error',
      file: 'lib.ts',
      line: 1,
      col: 19,
      message: 'cannot load the config: syntax error: Unexpected token ";"',
    });
    expect(r.code).toBe(2);
    const plain = await check(
      "import './lib.ts';\nexport default defineConfig({ definitions: [VM] });\n",
    );
    expect(plain.stdout).toMatch(
      /^lib\.ts:1:19: error\[config-error\]: cannot load the config: syntax error: Unexpected token ";"$/m,
    );
  });

  it('thrown in a module the config imports is placed where it threw', async () => {
    await writeFile(
      path.join(dir, 'lib.ts'),
      "export const a = 1;\nthrow new Error('no registry configured');\n",
    );
    const r = await parseFinding(
      "import './lib.ts';\nexport default defineConfig({ definitions: [VM] });\n",
    );
    expect(r.finding).toMatchObject({
      code: 'config-error',
      file: 'lib.ts',
      line: 2,
      message: 'cannot load the config: no registry configured',
    });
  });
});

describe('a config that throws after a file comment and its imports', () => {
  it('is placed at the line that threw, in the config and in a module it imports', async () => {
    // babel moved a file's leading comment after the imports, and its lines pushed the statements
    // after them down: the config's throw on line 8 was said at line 10.
    await writeFile(
      path.join(dir, 'lib.ts'),
      "/**\n * The registry.\n * Read at import.\n */\nimport { defineConfig } from 'cosi';\nvoid defineConfig;\nthrow new Error('no registry configured');\nexport const a = 1;\n",
    );
    await writeFile(
      path.join(dir, 'cosi.config.ts'),
      `/**\n * The project.\n *\n *   cosi check -f vms.yaml\n */\n${HEADER}throw new Error('settings.json is missing');\nexport default defineConfig({ definitions: [VM] });\n`,
    );
    const config = await runCosi(['check', '-f', 'vms.yaml'], dir);
    expect(config.stderr).toBe(
      'cosi: cosi.config.ts:8:7: cannot load the config: settings.json is missing\n',
    );
    await writeFile(
      path.join(dir, 'cosi.config.ts'),
      `/** The project. */\nimport './lib.ts';\n${HEADER}export default defineConfig({ definitions: [VM] });\n`,
    );
    const module = await runCosi(['check', '-f', 'vms.yaml'], dir);
    expect(module.stderr).toBe(
      'cosi: lib.ts:7:7: cannot load the config: no registry configured\n',
    );
  });
});

describe('a config that imports a module that is not there', () => {
  it("is one line at the import, without Node's require stack", async () => {
    const r = await check(
      "import { nope } from './nope.js';\nvoid nope;\nexport default defineConfig({ definitions: [VM] });\n",
    );
    expect(r.stderr).toBe(
      "cosi: cosi.config.ts:3:22: cannot load the config: Cannot find module './nope.js'\n",
    );
    expect(r.stdout).toMatch(
      /^cosi\.config\.ts:3:22: error\[config-error\]: cannot load the config: Cannot find module '\.\/nope\.js'$/m,
    );
    expect(r.code).toBe(2);
  });

  it('is one line at the import in the module the config imports that names it (review gate3 5)', async () => {
    // The transpiled code's frame was past the end of the line: lib.ts:1:197 of a 23-column line.
    await writeFile(
      path.join(dir, 'lib.ts'),
      "import './settings.js';\n/**\n * Settings.\n */\nimport { defineResource } from 'cosi';\nexport const a = defineResource;\n",
    );
    const r = await check(
      "import './lib.ts';\nexport default defineConfig({ definitions: [VM] });\n",
    );
    expect(r.stderr).toBe(
      "cosi: lib.ts:1:8: cannot load the config: Cannot find module './settings.js'\n",
    );
    expect(r.code).toBe(2);
  });
});

describe("a generic controller's settings", () => {
  it('misspelt or missing are one configuration error at the call, naming what it takes', async () => {
    const r = await check(
      `import { createTransformController } from 'cosi';
const Out = defineResource<{ cpus: number }>({ type: 'Outs.example.org' });
const c = createTransformController({
  name: 'Copy',
  input: VM,
  outputs: Out,
  mapMetadat: (vm: never) => Out.create((vm as { metadata: { id: string } }).metadata.id),
  transform: () => undefined,
} as never);
export default defineConfig({ definitions: [VM, Out], controllers: [c] });
`,
    );
    // It was a TypeError from inside the controller (reading 'namespace' of undefined).
    expectConfigError(
      r,
      /cannot load the config: createTransformController settings: unknown key "outputs" \(did you mean output\?\); unknown key "mapMetadat" \(did you mean mapMetadata\?\)$/m,
    );
    expect(r.stderr).toMatch(/^cosi: cosi\.config\.ts:5:11: /m);
  });
});

describe('process.exit called by the project', () => {
  it('at the top of the config is a configuration error, not exit 0', async () => {
    const r = await check(
      'process.exit(0);\nexport default defineConfig({ definitions: [VM] });\n',
    );
    expectConfigError(r, /cannot load the config: called process\.exit\(0\)/);
  });

  it('in setup is a configuration error', async () => {
    const r = await check(
      'export default defineConfig({ definitions: [VM], setup: () => { process.exit(0); } });\n',
    );
    expectConfigError(r, /setup failed: called process\.exit\(0\)/);
  });

  it('in a controller is a controller-failed finding and check exits 1', async () => {
    const r = await check(
      `export default defineConfig({ definitions: [VM], controllers: [${controller('process.exit(0);')}] });\n`,
    );
    // The report goes to stdout.
    expect(r.stdout).toMatch(
      /error\[controller-failed\]: Ctrl kept failing: called process\.exit\(0\)/,
    );
    // Settled with a controller failing did not converge: the summary does not say it passed.
    expect(r.stdout).toMatch(/^controllers: 0 passed, 1 failed$/m);
    expect(r.stdout).toMatch(/^convergence: 0 passed, 0 failed, 1 skipped$/m);
    expect(r.code).toBe(1);
  });
});
