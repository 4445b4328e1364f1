/**
 * A `defineResource` handle's pointer and kind carry its spec type: a read by them is typed
 * without a type argument, in a user's project typed against cosi's built declarations.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

/** A user's controller, typed against cosi's declarations. */
const USER_CODE = `import { createInMemoryState, defineResource, type Controller } from 'cosi';

interface VMSpec { cpus: number }
const VM = defineResource<VMSpec>({ type: 'VMs.example.org' });

const state = createInMemoryState();
const vm = await state.get(VM.pointer('web-1'));
export const cpus: number = vm.spec.cpus;
export const total: number = (await state.list(VM.kind())).reduce((n, r) => n + r.spec.cpus, 0);

export const controller: Controller = {
  name: 'VMController',
  inputs: [{ namespace: VM.namespace, type: VM.type, kind: 'weak' }],
  outputs: [],
  async run(rt) {
    const one = await rt.get(VM.pointer('web-1'));
    const n: number = one.spec.cpus;
    const maybe = await rt.find(VM.pointer('web-2', 'staging'));
    const m: number | undefined = maybe?.spec.cpus;
    for (const r of await rt.list(VM.kind())) console.log(n, m, r.spec.cpus.toFixed());
    // @ts-expect-error the spec is a VMSpec: it has no memory
    console.log(one.spec.memory);
    // An explicit type argument still names the spec; one the pointer contradicts is refused.
    const explicit = await rt.get<VMSpec>(VM.pointer('web-1'));
    console.log(explicit.spec.cpus);
    // @ts-expect-error the pointer is a VMSpec's
    await rt.get<{ memory: string }>(VM.pointer('web-1'));
    // A plain pointer is one of any spec, as before.
    const plain = await rt.get({ namespace: 'default', type: VM.type, id: 'web-1' });
    // @ts-expect-error its spec is unknown
    console.log(plain.spec.cpus);
    const given = await rt.get<VMSpec>(one.metadata);
    console.log(given.spec.cpus);
  },
};
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-typed-pointers-'));
  await mkdir(path.join(dir, 'node_modules'), { recursive: true });
  await symlink(REPO, path.join(dir, 'node_modules/cosi'), 'dir');
  await symlink(
    path.join(REPO, 'node_modules/@types'),
    path.join(dir, 'node_modules/@types'),
    'dir',
  );
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  await writeFile(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'es2022',
        module: 'preserve',
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      include: ['*.ts'],
    }),
  );
  await writeFile(path.join(dir, 'controller.ts'), USER_CODE);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("typed pointers in a user's project", { timeout: 120_000 }, () => {
  it("type a read by a handle's pointer or kind, and refuse a wrong use", async () => {
    const tsc = path.join(REPO, 'node_modules/typescript/bin/tsc');
    // Fails on an unused @ts-expect-error too: the wrong uses must be errors.
    const checked = await run(process.execPath, [tsc], { cwd: dir }).then(
      (done) => ({ code: 0, stdout: done.stdout }),
      (error: unknown) => error as { code: number; stdout: string },
    );
    expect(checked.stdout).toBe('');
    expect(checked.code).toBe(0);
  });
});
