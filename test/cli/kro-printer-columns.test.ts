import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A manifest tree in a temp dir: file name -> text. */
async function tree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-kro-columns-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

/** An RGD of kind Thing with one ConfigMap, and the printer columns given (YAML lines). */
const rgdWithColumns = (columns: string): string => `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: thing.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: Thing
    spec:
      name: string
    additionalPrinterColumns:
${columns}
  resources:
    - id: config
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${schema.spec.name}
        data:
          x: "1"
`;

const THING = `apiVersion: kro.run/v1alpha1
kind: Thing
metadata:
  name: one
spec:
  name: one
`;

/** The table's header cells and the first row's, split on runs of two spaces or more. */
function table(stdout: string): { header: string[]; row: string[] } {
  const [header = '', row = ''] = stdout.split('\n');
  return { header: header.split(/ {2,}/), row: row.split(/ {2,}/) };
}

describe('kro instance tables', () => {
  it("show kro's default printer columns, State and Ready", async () => {
    const r = await cli(['get', 'webapp', 'shop', '-f', 'fixtures/kro-webapp', '-q']);
    expect(r.code).toBe(0);
    const { header, row } = table(r.stdout);
    expect(header.slice(-2)).toEqual(['STATE', 'READY']);
    expect(row.slice(-2)).toEqual(['ACTIVE', 'True']);
  });

  it("show the RGD's additionalPrinterColumns instead of the defaults", async () => {
    const r = await cli([
      'get',
      'application',
      '-f',
      'fixtures/kro-examples/additionalPrinterColumns',
      '-q',
    ]);
    expect(r.code).toBe(0);
    const { header, row } = table(r.stdout);
    expect(header.slice(-3)).toEqual(['AVAILABLE REPLICAS', 'IMAGE', 'ENABLED INGRESS']);
    expect(header).not.toContain('STATE');
    expect(row.slice(-2)).toEqual(['nginx', 'true']);
  });

  it('refuses an RGD whose printer column jsonPath does not start with "."', async () => {
    const dir = await tree({
      'rgd.yaml': rgdWithColumns('      - { name: Name, type: string, jsonPath: spec.name }'),
    });
    const r = await cli(['check', '-f', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('rgd.yaml:12:47: error[rgd-bad-schema]');
  });

  it('leaves out, with a warning, a printer column whose jsonPath does not parse', async () => {
    const dir = await tree({
      'rgd.yaml': rgdWithColumns(
        '      - { name: Bad, type: string, jsonPath: ".spec[" }\n' +
          '      - { name: Name, type: string, jsonPath: .spec.name }',
      ),
      'thing.yaml': THING,
    });
    const check = await cli(['check', '-f', dir]);
    expect(check.stdout).toContain('warning[ignored-print-column]');
    const r = await cli(['get', 'thing', '-f', dir, '-q']);
    expect(r.code).toBe(0);
    const { header, row } = table(r.stdout);
    expect(header.at(-1)).toBe('NAME');
    expect(header).not.toContain('BAD');
    expect(row.at(-1)).toBe('one');
  });
});
