import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cli } from './run-cli.js';

const CONFIG_MAP = `
apiVersion: v1
kind: ConfigMap
metadata: {name: flags, namespace: default}
data:
  enabled: "on"
  answer: "yes"
  since: "2026-01-02"
  window: "1:20"
  plain: nginx
`;

describe('-o yaml quotes strings as kubectl does (go-yaml v2, YAML 1.1)', () => {
  it('creationTimestamp and strings a YAML 1.1 reader would take for a time, a bool or a number are quoted', async () => {
    const r = await cli(['get', 'cm', '-f', '-', '-q', '--stable', '-o', 'yaml'], {
      stdin: CONFIG_MAP,
    });
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n').map((line) => line.trim());
    expect(lines).toContain('creationTimestamp: "2025-01-01T00:00:00Z"');
    expect(lines).toEqual(
      expect.arrayContaining([
        'enabled: "on"',
        'answer: "yes"',
        'since: "2026-01-02"',
        'window: "1:20"',
        'plain: nginx',
      ]),
    );
    // What a YAML 1.1 reader (PyYAML, go-yaml v2) reads back: the same strings.
    const read = parse(r.stdout.replace(/^---\n/, ''), { version: '1.1' }) as {
      metadata: { creationTimestamp: unknown };
      data: Record<string, unknown>;
    };
    expect(read.metadata.creationTimestamp).toBe('2025-01-01T00:00:00Z');
    expect(read.data).toEqual({
      enabled: 'on',
      answer: 'yes',
      since: '2026-01-02',
      window: '1:20',
      plain: 'nginx',
    });
  });
});
