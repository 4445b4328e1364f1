import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Finding, type FindingCode } from '../../src/loaders/finding.js';
import { readManifests } from '../../src/loaders/manifest-reader.js';

const root = fileURLToPath(new URL('../../fixtures/invalid/', import.meta.url));

/** code, file, line, col, pointer: what the tests pin down (never the sentence). */
type Where = [FindingCode, string, number, number, string];

const where = (f: Finding): Where => [f.code, f.file, f.line, f.col, f.pointer];

async function findingsOf(dir: string): Promise<{ findings: Where[]; resources: number }> {
  const result = await readManifests([dir], { cwd: root });
  return { findings: result.findings.map(where), resources: result.resources.length };
}

/** Every class, with every finding its directory must produce, in order. */
const expected: Record<string, { findings: Where[]; resources: number }> = {
  'alias-bomb': {
    findings: [['alias-bomb', 'alias-bomb/vms.yaml', 10, 26, '/spec/d/4']],
    resources: 0,
  },
  'ambiguous-type': {
    findings: [['ambiguous-type', 'ambiguous-type/vms.yaml', 2, 9, '/metadata/type']],
    // The second document names the full type, which is never ambiguous.
    resources: 1,
  },
  'backtracking-pattern': {
    // `^(a+)+$` against 40 a's and a "!": answered at once by the linear-time engine.
    findings: [['schema-violation', 'backtracking-pattern/words.yaml', 5, 9, '/spec/text']],
    resources: 0,
  },
  'complex-key': {
    findings: [['complex-key', 'complex-key/vms.yaml', 7, 5, '/spec']],
    resources: 0,
  },
  'control-character': {
    // A NUL, an ESC and a BEL written raw into a value.
    findings: [
      ['control-character', 'control-character/vms.yaml', 6, 17, ''],
      ['control-character', 'control-character/vms.yaml', 6, 18, ''],
      ['control-character', 'control-character/vms.yaml', 6, 27, ''],
    ],
    resources: 0,
  },
  'crd-no-served-version': {
    findings: [
      ['unknown-type', 'crd-no-served-version/backups.yaml', 2, 7, '/kind'],
      ['invalid-definition', 'crd-no-served-version/crds.yaml', 10, 5, '/spec/versions'],
    ],
    resources: 0,
  },
  'crd-not-structural': {
    findings: [
      ['unknown-type', 'crd-not-structural/backups.yaml', 2, 7, '/kind'],
      [
        'invalid-schema',
        'crd-not-structural/crds.yaml',
        20,
        27,
        '/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/schedule',
      ],
      [
        'invalid-schema',
        'crd-not-structural/crds.yaml',
        22,
        19,
        '/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/target',
      ],
      [
        'invalid-schema',
        'crd-not-structural/crds.yaml',
        22,
        19,
        '/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/target/$ref',
      ],
    ],
    resources: 0,
  },
  'definition-rules': {
    findings: [
      // cosi's own type defined again, its alias rd taken, an id that is not the type, a
      // malformed print column; then a resource of the type whose definition was refused.
      ['invalid-definition', 'definition-rules/definitions.yaml', 4, 9, '/spec/type'],
      ['invalid-definition', 'definition-rules/definitions.yaml', 10, 13, '/spec/aliases/0'],
      ['invalid-definition', 'definition-rules/definitions.yaml', 14, 7, '/metadata/id'],
      [
        'invalid-definition',
        'definition-rules/definitions.yaml',
        19,
        17,
        '/spec/printColumns/0/jsonPath',
      ],
      ['unknown-type', 'definition-rules/others.yaml', 2, 9, '/metadata/type'],
    ],
    resources: 0,
  },
  'duplicate-definition': {
    findings: [
      ['duplicate-definition', 'duplicate-definition/more-definitions.yaml', 4, 9, '/spec/type'],
    ],
    resources: 1,
  },
  'duplicate-keys': {
    findings: [['duplicate-key', 'duplicate-keys/vms.yaml', 7, 3, '/spec/cpus']],
    resources: 0,
  },
  'duplicate-resource': {
    findings: [['duplicate-resource', 'duplicate-resource/b.yaml', 4, 7, '/metadata/id']],
    // The first one stays.
    resources: 1,
  },
  'empty-input': {
    findings: [['empty-input', '', 0, 0, '']],
    resources: 0,
  },
  'foreign-id': {
    findings: [
      ['schema-violation', 'foreign-id/bs.yaml', 5, 6, '/spec/n'],
      ['invalid-schema', 'foreign-id/definitions.yaml', 6, 10, '/spec/schema/$id'],
    ],
    resources: 0,
  },
  'invalid-definition': {
    findings: [
      ['invalid-definition', 'invalid-definition/definitions.yaml', 4, 9, '/spec/type'],
      ['invalid-definition', 'invalid-definition/definitions.yaml', 9, 9, '/spec/type'],
      ['invalid-definition', 'invalid-definition/definitions.yaml', 15, 16, '/spec/sensitivity'],
      ['schema-violation', 'invalid-definition/definitions.yaml', 21, 12, '/spec/aliases'],
      ['schema-violation', 'invalid-definition/definitions.yaml', 22, 3, '/spec/colour'],
      ['unknown-type', 'invalid-definition/vms.yaml', 2, 9, '/metadata/type'],
    ],
    resources: 0,
  },
  'invalid-id': {
    findings: [
      ['invalid-id', 'invalid-id/vms.yaml', 3, 7, '/metadata/id'],
      ['invalid-id', 'invalid-id/vms.yaml', 10, 7, '/metadata/id'],
      ['invalid-id', 'invalid-id/vms.yaml', 17, 7, '/metadata/id'],
      ['invalid-id', 'invalid-id/vms.yaml', 24, 7, '/metadata/id'],
    ],
    resources: 0,
  },
  'invalid-namespace': {
    findings: [['invalid-namespace', 'invalid-namespace/vms.yaml', 2, 14, '/metadata/namespace']],
    resources: 0,
  },
  'invalid-schema': {
    findings: [
      [
        'invalid-schema',
        'invalid-schema/definitions.yaml',
        8,
        21,
        '/spec/schema/properties/cpus/type',
      ],
      ['unknown-type', 'invalid-schema/vms.yaml', 2, 9, '/metadata/type'],
    ],
    resources: 0,
  },
  'long-values': {
    // Keys, tags, types and a line of 10,000 characters: found where they are, quoted cut short.
    findings: [
      ['yaml-syntax', 'long-values/block-scalar.yaml', 7, 11, ''],
      ['schema-violation', 'long-values/key.yaml', 8, 5, `/spec/${'k'.repeat(59)}…`],
      ['unknown-tag', 'long-values/tag.yaml', 6, 10011, '/spec/cpus'],
      ['schema-violation', 'long-values/tag.yaml', 6, 10011, '/spec/cpus'],
      ['unknown-type', 'long-values/type.yaml', 3, 9, '/metadata/type'],
    ],
    resources: 0,
  },
  'merge-key': {
    findings: [
      ['schema-violation', 'merge-key/vms.yaml', 5, 3, '/spec'],
      ['merge-key', 'merge-key/vms.yaml', 5, 7, '/spec/<<'],
    ],
    resources: 0,
  },
  'missing-fields': {
    findings: [
      ['missing-field', 'missing-fields/vms.yaml', 1, 1, '/metadata'],
      ['missing-field', 'missing-fields/vms.yaml', 6, 3, '/metadata/type'],
      ['missing-field', 'missing-fields/vms.yaml', 12, 3, '/metadata/id'],
    ],
    resources: 0,
  },
  'nesting-too-deep': {
    findings: [
      // 256 levels are allowed: the root, spec, disks, then 253 more sequences.
      [
        'nesting-too-deep',
        'nesting-too-deep/vms.yaml',
        7,
        10 + 255,
        `/spec/disks${'/0'.repeat(255)}`,
      ],
    ],
    resources: 0,
  },
  'not-a-mapping': {
    findings: [
      ['not-a-mapping', 'not-a-mapping/vms.yaml', 1, 1, ''],
      ['not-a-mapping', 'not-a-mapping/vms.yaml', 5, 1, ''],
    ],
    resources: 0,
  },
  'not-utf8': {
    findings: [
      ['invalid-encoding', 'not-utf8/utf16.yaml', 1, 1, ''],
      // The curly quote of Windows-1252, on line 6 after "  image: ".
      ['invalid-encoding', 'not-utf8/windows-1252.yaml', 6, 10, ''],
    ],
    // vms.yaml is fine.
    resources: 1,
  },
  'number-out-of-range': {
    findings: [
      ['number-out-of-range', 'number-out-of-range/vms.yaml', 5, 9, '/spec/cpus'],
      ['number-out-of-range', 'number-out-of-range/vms.yaml', 12, 9, '/spec/cpus'],
      ['schema-violation', 'number-out-of-range/vms.yaml', 12, 9, '/spec/cpus'],
    ],
    resources: 0,
  },
  'recursive-alias': {
    findings: [['recursive-alias', 'recursive-alias/vms.yaml', 7, 9, '/spec/self']],
    resources: 0,
  },
  'recursive-ref': {
    findings: [
      ['invalid-schema', 'recursive-ref/definitions.yaml', 6, 11, '/spec/schema/$ref'],
      ['unknown-type', 'recursive-ref/nodes.yaml', 2, 9, '/metadata/type'],
    ],
    resources: 0,
  },
  'schema-violations': {
    findings: [
      ['schema-violation', 'schema-violations/vms.yaml', 5, 3, '/spec'],
      ['schema-violation', 'schema-violations/vms.yaml', 5, 9, '/spec/cpus'],
      ['schema-violation', 'schema-violations/vms.yaml', 6, 17, '/spec/disks/1'],
      ['schema-violation', 'schema-violations/vms.yaml', 7, 3, '/spec/colour'],
    ],
    resources: 0,
  },
  'several-problems': {
    findings: [
      ['invalid-id', 'several-problems/vms.yaml', 3, 7, '/metadata/id'],
      ['unknown-key', 'several-problems/vms.yaml', 4, 3, '/metadata/colour'],
      ['wrong-type', 'several-problems/vms.yaml', 6, 11, '/metadata/labels/tier'],
      ['schema-violation', 'several-problems/vms.yaml', 8, 9, '/spec/cpus'],
      ['duplicate-key', 'several-problems/vms.yaml', 10, 3, '/spec/image'],
      ['unknown-type', 'several-problems/vms.yaml', 13, 9, '/metadata/type'],
    ],
    resources: 0,
  },
  'unknown-anchor': {
    findings: [
      ['unknown-anchor', 'unknown-anchor/vms.yaml', 6, 10, '/spec/image'],
      // The alias reads as null, which the schema then rejects: the cause comes first.
      ['schema-violation', 'unknown-anchor/vms.yaml', 6, 10, '/spec/image'],
    ],
    resources: 0,
  },
  'unknown-keys': {
    findings: [
      ['unknown-key', 'unknown-keys/vms.yaml', 1, 1, '/metdata'],
      ['missing-field', 'unknown-keys/vms.yaml', 1, 1, '/metadata'],
      ['unknown-key', 'unknown-keys/vms.yaml', 11, 3, '/metadata/nmespace'],
    ],
    resources: 0,
  },
  'unknown-tag': {
    findings: [
      ['unknown-tag', 'unknown-tag/vms.yaml', 5, 23, '/spec/cpus'],
      ['schema-violation', 'unknown-tag/vms.yaml', 5, 23, '/spec/cpus'],
      ['unknown-tag', 'unknown-tag/vms.yaml', 6, 18, '/spec/image'],
    ],
    resources: 0,
  },
  'unknown-type': {
    findings: [['unknown-type', 'unknown-type/vms.yaml', 2, 9, '/metadata/type']],
    resources: 0,
  },
  'unknown-kind': {
    // A kind no CRD defines, then a defined kind in a version its CRD does not serve.
    findings: [
      ['unknown-type', 'unknown-kind/resources.yaml', 3, 7, '/kind'],
      ['unknown-type', 'unknown-kind/resources.yaml', 10, 7, '/kind'],
    ],
    resources: 0,
  },
  'wrong-types': {
    findings: [
      ['wrong-type', 'wrong-types/vms.yaml', 1, 11, '/metadata'],
      ['wrong-type', 'wrong-types/vms.yaml', 5, 9, '/metadata/type'],
      ['wrong-type', 'wrong-types/vms.yaml', 6, 7, '/metadata/id'],
      ['wrong-type', 'wrong-types/vms.yaml', 14, 11, '/metadata/labels'],
      ['wrong-type', 'wrong-types/vms.yaml', 17, 15, '/metadata/annotations/replicas'],
    ],
    resources: 0,
  },
  'yaml-syntax': {
    // yaml notices the unterminated string at the end of the file.
    findings: [['yaml-syntax', 'yaml-syntax/vms.yaml', 7, 1, '']],
    resources: 0,
  },
  'yaml-version': {
    findings: [['yaml-version', 'yaml-version/vms.yaml', 1, 1, '']],
    resources: 0,
  },
  'yaml11-boolean': {
    findings: [['yaml11-boolean', 'yaml11-boolean/vms.yaml', 5, 13, '/metadata/labels/public']],
    // A warning does not drop the resource.
    resources: 1,
  },
};

describe('the invalid fixtures', () => {
  for (const [dir, want] of Object.entries(expected)) {
    it(`${dir}/ gives exactly its findings, with positions and pointers`, async () => {
      expect(await findingsOf(dir)).toEqual(want);
    });
  }

  it('cover every directory, and the README lists each of them', async () => {
    const entries = await readdir(root, { withFileTypes: true });
    const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name);
    expect(dirs.sort()).toEqual(Object.keys(expected).sort());
    const readme = await readFile(`${root}README.md`, 'utf8');
    for (const dir of dirs) expect(readme).toContain(`\`${dir}/\``);
  });

  it('report every problem of a file in one run', async () => {
    const { findings } = await findingsOf('several-problems');
    expect(new Set(findings.map(([code]) => code))).toEqual(
      new Set([
        'invalid-id',
        'unknown-key',
        'wrong-type',
        'schema-violation',
        'duplicate-key',
        'unknown-type',
      ]),
    );
  });

  it('name both places of a duplicate resource', async () => {
    const { findings } = await readManifests(['duplicate-resource'], { cwd: root });
    expect(findings[0]?.related).toEqual({
      file: 'duplicate-resource/a.yaml',
      line: 3,
      col: 7,
      pointer: '/metadata/id',
    });
    expect(findings[0]?.message).toContain('duplicate-resource/a.yaml:3:7');
  });

  it('name both places of a duplicate definition', async () => {
    const { findings } = await readManifests(['duplicate-definition'], { cwd: root });
    expect(findings[0]?.related).toMatchObject({
      file: 'duplicate-definition/definitions.yaml',
      line: 4,
      col: 9,
    });
  });

  it('name the rule a definition broke and the schema keyword a spec broke', async () => {
    const definitions = await readManifests(['invalid-definition'], { cwd: root });
    expect(definitions.findings.map((f) => f.rule)).toEqual([
      'name-not-camel-case',
      'name-not-plural',
      'unknown-sensitivity',
      'type',
      'additionalProperties',
      undefined,
    ]);
    const specs = await readManifests(['schema-violations'], { cwd: root });
    expect(specs.findings.map((f) => f.rule)).toEqual([
      'required',
      'type',
      'type',
      'additionalProperties',
    ]);
  });

  it('quote values of 10,000 characters cut short', async () => {
    const { findings } = await readManifests(['long-values'], { cwd: root });
    for (const f of findings) expect(f.message.length).toBeLessThan(300);
    expect(findings.map((f) => f.message).join('\n')).toContain('(10000 characters)');
  });

  it('point an unknown type at the invalid definition of that type', async () => {
    const { findings } = await readManifests(['invalid-schema'], { cwd: root });
    expect(findings[1]?.related).toMatchObject({
      file: 'invalid-schema/definitions.yaml',
      line: 4,
      col: 9,
    });
  });
});
