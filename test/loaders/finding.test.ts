import { describe, expect, it } from 'vitest';
import {
  compareFindings,
  createFinding,
  FINDING_CODES,
  FINDING_SEVERITY,
  formatFinding,
  hasErrors,
  type FindingInit,
} from '../../src/loaders/finding.js';

const at = (init: Partial<FindingInit> = {}): FindingInit => ({
  code: 'schema-violation',
  message: 'must be integer',
  file: 'vms.yaml',
  line: 7,
  col: 9,
  pointer: '/spec/cpus',
  ...init,
});

describe('findings', () => {
  it('have unique codes, each with a fixed severity: YAML warnings, the cap note, ignored metadata, namespaces, statuses, repeated pod list items and print columns, kind filters that name nothing, owner references nothing resolves, unresolved previous revisions, RGDs that need a kro feature gate, RGD instances that wait and undefined types warn', () => {
    expect(new Set(FINDING_CODES).size).toBe(FINDING_CODES.length);
    const warnings = FINDING_CODES.filter((code) => FINDING_SEVERITY[code] === 'warning');
    expect(warnings).toEqual([
      'yaml-warning',
      'yaml11-boolean',
      'yaml11-octal',
      'yaml11-number',
      'read-only-metadata',
      'ignored-namespace',
      'ignored-status',
      'duplicate-list-item',
      'api-warning',
      'large-definition',
      'ignored-print-column',
      'unknown-kind-filter',
      'unresolved-owner',
      'previous-unresolved',
      'too-many-findings',
      'rgd-feature-gate',
      'rgd-waiting',
      'observed-unused',
      'undefined-type',
    ]);
  });

  it('take their severity from their code', () => {
    expect(createFinding(at()).severity).toBe('error');
    expect(createFinding(at({ code: 'yaml11-boolean' })).severity).toBe('warning');
  });

  it('carry the rule and the related place only when there is one', () => {
    expect(Object.keys(createFinding(at()))).not.toContain('rule');
    expect(Object.keys(createFinding(at()))).not.toContain('related');
    const related = { file: 'a.yaml', line: 1, col: 1, pointer: '/metadata/id' };
    expect(createFinding(at({ rule: 'type', related }))).toMatchObject({ rule: 'type', related });
  });

  it('format as file:line:col: severity[code]: message (at pointer)', () => {
    expect(formatFinding(createFinding(at()))).toBe(
      'vms.yaml:7:9: error[schema-violation]: must be integer (at /spec/cpus)',
    );
    expect(formatFinding(createFinding(at({ code: 'yaml11-boolean', message: 'quote it' })))).toBe(
      'vms.yaml:7:9: warning[yaml11-boolean]: quote it (at /spec/cpus)',
    );
  });

  it('format without the parts they do not have', () => {
    const file = createFinding(at({ code: 'unreadable-file', line: 0, col: 0, pointer: '' }));
    expect(formatFinding(file)).toBe('vms.yaml: error[unreadable-file]: must be integer');
    const input = createFinding(
      at({ code: 'empty-input', message: 'no resources', file: '', line: 0, col: 0, pointer: '' }),
    );
    expect(formatFinding(input)).toBe('error[empty-input]: no resources');
  });

  it('sort by file, line and column, keeping the order of findings at one place', () => {
    const a = createFinding(at({ file: 'b.yaml', line: 1, col: 1 }));
    const b = createFinding(at({ file: 'a.yaml', line: 2, col: 1 }));
    const c = createFinding(at({ file: 'a.yaml', line: 1, col: 5 }));
    const d = createFinding(at({ code: 'unknown-anchor', file: 'a.yaml', line: 1, col: 5 }));
    const e = createFinding(at({ file: 'a.yaml', line: 1, col: 2 }));
    expect([a, b, c, d, e].sort(compareFindings)).toEqual([e, c, d, b, a]);
    expect([a, b, d, c, e].sort(compareFindings)).toEqual([e, d, c, b, a]);
  });

  it('fail a load only when one is an error', () => {
    expect(hasErrors([createFinding(at({ code: 'yaml11-boolean' }))])).toBe(false);
    expect(hasErrors([createFinding(at({ code: 'yaml11-boolean' })), createFinding(at())])).toBe(
      true,
    );
    expect(hasErrors([])).toBe(false);
  });
});
