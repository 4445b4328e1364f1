import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { cli, REPO } from './run-cli.js';

interface Doc {
  metadata: { type: string; id: string; owner: string; labels?: Record<string, string> };
  spec: Record<string, unknown>;
}

const FIXTURE = 'fixtures/yaml-transforms';
const docs = (yaml: string): Doc[] => parseAllDocuments(yaml).map((d) => d.toJS() as Doc);

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A manifest tree in a temp dir: file name -> text. */
async function tree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-transforms-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

const fixtureFile = (name: string): Promise<string> =>
  readFile(path.join(REPO, FIXTURE, name), 'utf8');

/** The fixture's transform, written in TypeScript with the same name. */
const TYPESCRIPT_TRANSFORM = `import { createTransformController, defineConfig, defineResource } from 'cosi';

interface VMSpec { cpus: number; image: string; network?: boolean; mtu?: number }
interface NICSpec { vm: string; mtu: number; hostname: string }
const VM = defineResource<VMSpec>({ type: 'VMs.example.org' });
const NIC = defineResource<NICSpec>({ type: 'NICs.example.org' });

export default defineConfig({
  controllers: [
    createTransformController<VMSpec, NICSpec>({
      name: 'vm-nics',
      input: VM,
      output: NIC,
      mapMetadata: (vm) => (vm.spec.network ? NIC.create(\`\${vm.metadata.id}-nic\`) : undefined),
      transform: (_ctx, vm, nic) => {
        nic.spec = {
          vm: vm.metadata.id,
          mtu: vm.spec.mtu ?? 1500,
          hostname: \`\${vm.metadata.id}.\${vm.metadata.namespace}.internal\`,
        };
        nic.metadata.labels = { vm: vm.metadata.id };
      },
    }),
  ],
});
`;

/** A transform document over the fixture's types, its spec lines given. */
const transform = (spec: string): string => `metadata:
  type: Transforms.cosi.dev
  id: t
spec:
${spec}`;

describe('Transforms.cosi.dev: transform controllers declared in YAML', { timeout: 30_000 }, () => {
  it('renders one output per input that includeWhen lets through', async () => {
    const r = await cli(['apply', '-f', FIXTURE, '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    const nics = docs(r.stdout).filter((d) => d.metadata.type === 'NICs.example.org');
    expect(nics.map((d) => [d.metadata.id, d.metadata.owner, d.spec])).toEqual([
      ['db-1-nic', 'vm-nics', { vm: 'db-1', mtu: 9000, hostname: 'db-1.default.internal' }],
      ['web-1-nic', 'vm-nics', { vm: 'web-1', mtu: 1500, hostname: 'web-1.default.internal' }],
    ]);
    expect(nics[0]?.metadata.labels).toEqual({ vm: 'db-1' });
  });

  it('gives the same outputs with the same writes as the transform written in TypeScript', async () => {
    const files = {
      'definitions.yaml': await fixtureFile('definitions.yaml'),
      'vms.yaml': await fixtureFile('vms.yaml'),
    };
    const declared = await tree({
      ...files,
      'transform.yaml': await fixtureFile('transform.yaml'),
    });
    const typescript = await tree({ ...files, 'cosi.config.ts': TYPESCRIPT_TRANSFORM });
    const run = (dir: string) => cli(['apply', '-f', dir, '-o', 'yaml', '--stable'], { cwd: dir });
    const [yaml, ts] = await Promise.all([run(declared), run(typescript)]);
    expect(yaml.code).toBe(0);
    expect(ts.code).toBe(0);
    expect(yaml.stdout).toBe(ts.stdout);
    const writes = (stderr: string) => /(\d+) reconciles?, (\d+) writes/.exec(stderr)?.slice(1);
    expect(writes(yaml.stderr)).toEqual(['1', '2']);
    expect(writes(yaml.stderr)).toEqual(writes(ts.stderr));
  });

  it('explain --field traces an output field to the transform template line', async () => {
    const r = await cli(['explain', 'nic/db-1-nic', '-f', FIXTURE, '--field', 'hostname']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      '  /spec/hostname  v1 vm-nics reconcile #1  template fixtures/yaml-transforms/transform.yaml:16:17 ${self.metadata.id} ${self.metadata.namespace}\n',
    );
    const labels = await cli(['explain', 'nic/db-1-nic', '-f', FIXTURE, '--field', 'metadata']);
    expect(labels.stdout).toContain(
      '  /metadata/labels/vm  v1 vm-nics reconcile #1  template fixtures/yaml-transforms/transform.yaml:12:11 ${self.metadata.id}\n',
    );
  });

  it('shows the declared controller in graph like any other', async () => {
    const r = await cli(['graph', '-f', FIXTURE, '-o', 'json']);
    expect(r.code).toBe(0);
    const graph = JSON.parse(r.stdout) as { controllers: { name: string }[] };
    expect(graph.controllers.map((c) => c.name)).toEqual(['vm-nics']);
  });

  it('only transforms the inputs with the declared labels', async () => {
    const dir = await tree({
      'definitions.yaml': await fixtureFile('definitions.yaml'),
      'vms.yaml': (await fixtureFile('vms.yaml')).replace(
        'id: web-1\n',
        'id: web-1\n  labels:\n    tier: web\n',
      ),
      'transform.yaml': (await fixtureFile('transform.yaml')).replace(
        '    type: VMs.example.org\n',
        '    type: vm\n    labels:\n      tier: web\n',
      ),
    });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    const nics = docs(r.stdout).filter((d) => d.metadata.type === 'NICs.example.org');
    expect(nics.map((d) => d.metadata.id)).toEqual(['web-1-nic']);
  });

  it('fails the check of an input whose output its type refuses', async () => {
    const dir = await tree({
      'definitions.yaml': await fixtureFile('definitions.yaml'),
      'vms.yaml': (await fixtureFile('vms.yaml')).replace('mtu: 9000', 'mtu: 100'),
      'transform.yaml': await fixtureFile('transform.yaml'),
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/the output db-1-nic is an invalid NIC: \/mtu: must be >= 576/);
  });

  it("leaves out a spec field whose expression gives kro's omit(), and refuses it elsewhere", async () => {
    const files = {
      'definitions.yaml': await fixtureFile('definitions.yaml'),
      'vms.yaml': await fixtureFile('vms.yaml'),
    };
    const fixture = await fixtureFile('transform.yaml');
    const hostname = '      hostname: ${self.metadata.id}.${self.metadata.namespace}.internal\n';
    expect(fixture).toContain(hostname);
    const dir = await tree({
      ...files,
      'transform.yaml': fixture.replace(
        hostname,
        "      hostname: '${has(self.spec.mtu) ? self.metadata.id : omit()}'\n",
      ),
    });
    const r = await cli(['apply', '-f', dir, '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    const nics = docs(r.stdout).filter((d) => d.metadata.type === 'NICs.example.org');
    expect(nics.map((d) => [d.metadata.id, d.spec])).toEqual([
      ['db-1-nic', { vm: 'db-1', mtu: 9000, hostname: 'db-1' }],
      ['web-1-nic', { vm: 'web-1', mtu: 1500 }],
    ]);
    const refused = await tree({
      ...files,
      'transform.yaml': fixture.replace('id: ${self.metadata.id}-nic', 'id: "${omit()}"'),
    });
    const check = await cli(['check', '-f', refused]);
    expect(check.code).toBe(1);
    // At the $ inside the quotes.
    expect(check.stdout).toContain(
      'transform.yaml:10:10: error[transform-bad-expression]: ${omit()}: omit() can only be the whole value',
    );
  });

  it.each([
    [
      'transform-unknown-type',
      '  input:\n    type: Nothings.example.org\n  output:\n    type: NICs.example.org\n    id: x\n',
      'transform.yaml:6:11',
    ],
    [
      'transform-unknown-ref',
      '  input:\n    type: vm\n  output:\n    type: NICs.example.org\n    id: ${other.metadata.id}\n',
      'transform.yaml:9:9',
    ],
    [
      'transform-bad-expression',
      '  input:\n    type: vm\n  output:\n    type: NICs.example.org\n    id: a-${self.(}\n',
      'transform.yaml:9:11',
    ],
    [
      'transform-type-mismatch',
      '  input:\n    type: vm\n  output:\n    type: NICs.example.org\n    id: cpus-${self.spec.cpus}\n',
      'transform.yaml:9:14',
    ],
    [
      'transform-type-mismatch',
      '  input:\n    type: vm\n  output:\n    type: NICs.example.org\n    id: x\n    spec:\n      vm: ${self.spec.cpus}\n',
      'transform.yaml:11:11',
    ],
    [
      'transform-bad-spec',
      '  input:\n    type: vm\n  outputs:\n    type: NICs.example.org\n',
      'transform.yaml:7:3',
    ],
  ])('refuses a transform with %s at the place', async (code, spec, at) => {
    const dir = await tree({
      'definitions.yaml': await fixtureFile('definitions.yaml'),
      'vms.yaml': await fixtureFile('vms.yaml'),
      'transform.yaml': transform(spec),
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${at}: error[${code}]`);
  });

  it("refuses an expression that reads a field the input's type cannot have, not one an open schema may", async () => {
    // A closed schema (additionalProperties: false): `hots` can never be there, so the transform
    // would wait for ever, writing nothing (review-first H2).
    const closed = (await fixtureFile('definitions.yaml')).replace(
      '    required: [cpus, image]\n',
      '    required: [cpus, image]\n    additionalProperties: false\n',
    );
    const spec =
      '  input:\n    type: vm\n  output:\n    type: NICs.example.org\n    id: ${self.metadata.id}\n    spec:\n      vm: ${self.spec.imag}\n      mtu: ${self.spec.mtu}\n      hostname: "${self.spec.image.lowerAscii()}"\n';
    const dir = await tree({
      'definitions.yaml': closed,
      'vms.yaml': await fixtureFile('vms.yaml'),
      'transform.yaml': transform(spec),
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.code).toBe(1);
    const found = r.stdout
      .split('\n')
      .filter((l) => l.includes('[transform-unknown-field]'))
      .map((l) => l.slice(l.indexOf('transform.yaml:')));
    expect(found).toEqual([
      'transform.yaml:11:11: error[transform-unknown-field]: ${self.spec.imag} reads spec.imag, which VMs.example.org cannot have: its fields there are cpus, image, mtu, network (did you mean "image"?) (at /spec/output/spec/vm)',
    ]);
    // The fixture's schema keeps other fields: reading one is no mistake there.
    const open = await tree({
      'definitions.yaml': await fixtureFile('definitions.yaml'),
      'vms.yaml': await fixtureFile('vms.yaml'),
      'transform.yaml': transform(spec.replace('${self.spec.imag}', '${self.spec.extra}')),
    });
    expect((await cli(['check', '-f', open])).stdout).not.toContain('transform-unknown-field');
  });
});
