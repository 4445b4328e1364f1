/**
 * A manifest's own text (its file name, its keys) in the machine formats of `check`: TAP must
 * not read a `#` in a file name as a directive, nor a line feed as a test point; JUnit must stay
 * well-formed XML whatever the characters; the github annotations must carry no raw control
 * character into a CI log.
 */
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../../src/app/check/check-result.js';
import { renderCheckGithub } from '../../../src/cli/render/check/check-github.js';
import { renderCheckJunit } from '../../../src/cli/render/check/check-junit.js';
import { renderCheckTap } from '../../../src/cli/render/check/check-tap.js';
import { kustomization } from '../../../src/loaders/unrendered-sources.js';

/** One invalid document of `file`, its finding at a data key `key`. */
function invalid(file: string, key: string): CheckResult {
  return {
    cases: [
      {
        check: 'manifests',
        name: `${file}:1`,
        resource: { file, line: 1, col: 1, kind: 'ConfigMap', name: 'cm', status: 'invalid' },
        findings: [
          {
            code: 'schema-violation',
            message: 'must be a string',
            severity: 'error',
            file,
            line: 4,
            col: 3,
            pointer: `/data/${key}`,
          },
        ],
      },
    ],
    strict: false,
  };
}

describe("check's machine formats, given a manifest's own text", () => {
  it('TAP: a # in a file name is no directive, a line feed no test point of its own', () => {
    const tap = renderCheckTap(invalid('cm # TODO later.yaml', 'k')).split('\n');
    expect(tap[2]).toBe('not ok 1 - manifests: cm \\# TODO later.yaml:1');
    const injected = renderCheckTap(invalid('a\nok 99 - fake.yaml', 'k')).split('\n');
    expect(injected.filter((line) => /^(not )?ok \d/.test(line))).toEqual([
      'not ok 1 - manifests: a\\nok 99 - fake.yaml:1',
    ]);
    // A backslash stays one, written as TAP writes it.
    expect(renderCheckTap(invalid('a\\#b.yaml', 'k'))).toContain(
      'not ok 1 - manifests: a\\\\\\#b.yaml:1',
    );
  });

  it('JUnit: well-formed XML with U+FFFE, U+FFFF or half a surrogate pair in a key', () => {
    for (const key of ['\ufffe', '\uffff', 'x\ud800y', 'x\udc00', 'ok\u{1f600}']) {
      const xml = renderCheckJunit(invalid('cm.yaml', key));
      const parser = new SaxesParser();
      const errors: string[] = [];
      parser.on('error', (error) => errors.push(error.message));
      parser.write(xml).close();
      expect(errors, JSON.stringify(key)).toEqual([]);
    }
    // A whole character outside the basic plane is kept.
    expect(renderCheckJunit(invalid('cm.yaml', 'ok\u{1f600}'))).toContain('ok\u{1f600}');
  });

  it('github: no raw control character of a key reaches the log', () => {
    const github = renderCheckGithub(invalid('cm.yaml', '\u001b]0;title\u0007\t'), { cwd: '/w' });
    // eslint-disable-next-line no-control-regex
    expect(github).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(github).toContain('(at /data/\\x1b]0;title\\x07\\t)');
  });

  it('github: no raw control character of a file name reaches the log, in file= as elsewhere', () => {
    const name = 'm/r\u001b[31mred\u0001.yaml';
    const github = renderCheckGithub(
      { ...invalid(name, 'k'), unrendered: [kustomization('m/\u001b[2Jkustomization.yaml')] },
      { cwd: '/w' },
    );
    // eslint-disable-next-line no-control-regex
    expect(github).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(github).toContain('::error file=m/r\\x1b[31mred\\x01.yaml,line=4,col=3,');
    expect(github).toContain('::notice file=m/\\x1b[2Jkustomization.yaml,line=1,');
  });
});
