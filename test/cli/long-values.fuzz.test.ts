import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

const DEFINITIONS = `metadata:
  type: rd
  id: boxes.example.org
spec:
  type: Boxes.example.org
  schema:
    type: object
    additionalProperties: false
    properties:
      size: { type: integer }
      label: { type: string }
`;

/** A box manifest, with `metadata` and `spec` lines given (indented by two). */
const box = (metadata: string, spec: string): string =>
  `metadata:\n  type: Boxes.example.org\n  id: box\n${metadata}spec:\n  label: x\n${spec}`;

/**
 * Every way a manifest can put a long value where a finding quotes it: each makes at least one
 * finding (an error, or a warning that fails under --strict).
 */
const KINDS: Readonly<Record<string, (value: string, digits: string) => string>> = {
  'a quoted value breaking the schema': (v) => box('', `  size: ${JSON.stringify(v)}\n`),
  'a plain value breaking the schema': (v) => box('', `  size: ${v}\n`),
  'a key the schema does not know': (v) => box('', `  ? ${v}\n  : 1\n`),
  'a key twice': (v) => box('', `  ? ${v}\n  : 1\n  ? ${v}\n  : 2\n`),
  'a key metadata does not know': (v) => box(`  ? ${v}\n  : 1\n`, ''),
  'a label key with a list for a value': (v) => box(`  labels:\n    ? ${v}\n    : [1]\n`, ''),
  'an annotation key that is not a string': (v) =>
    box(`  annotations:\n    ? ${v}\n    : {}\n`, ''),
  'a type nothing defines': (v) => `metadata:\n  type: ${v}\n  id: box\nspec: {}\n`,
  'an id': (v) => `metadata:\n  type: Boxes.example.org\n  id: ${v} x\nspec: {}\n`,
  'a namespace': (v) =>
    `metadata:\n  namespace: ${v}_X\n  type: Boxes.example.org\n  id: b\nspec: {}\n`,
  'an owner': (v) => box(`  owner: ${v}\n`, ''),
  'a tag': (v) => box('', `  size: !${v} 1\n`),
  'an alias with no anchor': (v) => box('', `  size: *${v}\n`),
  'a block scalar header': (v) => box('', `  other: |${v}\n   text\n`),
  'an unclosed quoted string': (v) => box('', `  other: "${v}\n`),
  'a broken flow mapping': (v) => `{ metadata: { ${v}: [ }\n`,
  'a directive': (v) => `%${v}\n---\n${box('', '')}`,
  'a YAML version': (_, d) => `%YAML 1.${d}\n---\n${box('', '')}`,
  'a number out of range': (_, d) => box('', `  size: 1${d}\n`),
  'an integer beyond 2^53': (_, d) => box('', `  size: 9${d.slice(0, 300)}\n`),
  'a YAML 1.1 octal': (_, d) => box('', `  size: 0${d.replace(/[89]/g, '7')}\n`),
};

/** The formats every finding is rendered in. */
const FORMATS = ['text', 'json', 'junit', 'tap', 'github'] as const;

/** Longest message, whatever the input. */
const MAX_MESSAGE = 300;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-long-'));
  await writeFile(path.join(dir, 'definitions.yaml'), DEFINITIONS);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface JsonReport {
  cases: { name: string; findings: { message: string; pointer: string; line: number }[] }[];
}

/** Checks `text` as manifests in every format: findings stay short, lines and the whole output bounded. */
async function expectBoundedFindings(text: string): Promise<void> {
  await writeFile(path.join(dir, 'input.yaml'), text);
  for (const format of FORMATS) {
    const r = await cli(
      ['check', '-f', 'input.yaml', 'definitions.yaml', '--strict', '-o', format],
      {
        cwd: dir,
      },
    );
    expect(r.code, r.stderr).toBe(1);
    // Nothing of the long value gets through whole: every line is short, so is the report.
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThan(1500);
    expect(r.stdout.length).toBeLessThan(20_000);
    expect(r.stderr.length).toBeLessThan(2_000);
    if (format !== 'json') continue;
    const report = JSON.parse(r.stdout) as JsonReport;
    const findings = report.cases.flatMap((c) => c.findings);
    expect(findings.length).toBeGreaterThan(0);
    for (const f of findings) {
      expect(f.message.length).toBeLessThan(MAX_MESSAGE);
      expect(f.pointer.length).toBeLessThanOrEqual(100);
    }
    for (const c of report.cases) expect(c.name.length).toBeLessThan(MAX_MESSAGE);
  }
}

/** Long values of every kind of character: ASCII, accented, astral (surrogate pairs in UTF-16). */
const longValue = fc
  .record({
    unit: fc.constantFrom('k', 'é', 'a😀', 'ab-c'),
    length: fc.constantFrom(61, 241, 2_000, 10_000, 100_000),
  })
  .map(({ unit, length }) => unit.repeat(Math.ceil(length / unit.length)));

describe('long values in the input make short findings in every format', () => {
  it('for every kind of value, character and length', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(KINDS)), longValue, async (kind, value) => {
        const make = KINDS[kind];
        if (make === undefined) throw new Error(kind);
        await expectBoundedFindings(make(value, '9'.repeat(value.length)));
      }),
      { numRuns: 30 },
    );
  }, 240_000);

  it.each(Object.keys(KINDS))(
    'for %s of 10,000 characters',
    async (kind) => {
      await expectBoundedFindings(KINDS[kind]?.('k'.repeat(10_000), '9'.repeat(10_000)) ?? '');
    },
    60_000,
  );

  it('for a 1 MB single-line scalar', async () => {
    await expectBoundedFindings(box('', `  size: ${'x'.repeat(1_000_000)}\n`));
    await expectBoundedFindings(box('', `  other: |${'x'.repeat(1_000_000)}\n   text\n`));
  }, 60_000);

  it("for a controller's error of 1 MB, in apply's report and in check", async () => {
    const apply = await cli(['apply', '-f', 'fixtures/cli/long-error']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('last error: cannot echo start: xxx');
    for (const line of apply.stderr.split('\n')) expect(line.length).toBeLessThan(MAX_MESSAGE);
    for (const format of FORMATS) {
      const check = await cli(['check', '-f', 'fixtures/cli/long-error', '-o', format]);
      expect(check.code).toBe(1);
      expect(check.stdout.length).toBeLessThan(20_000);
    }
  }, 60_000);
});
