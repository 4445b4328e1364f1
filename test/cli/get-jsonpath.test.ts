import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

const getVms = (template: string) =>
  cli(['get', 'vm', '-f', 'fixtures/vm-network', '-q', '-o', `jsonpath=${template}`]);

describe('cosi get -o jsonpath', () => {
  it('runs the template on each resource, one line each, as talosctl', async () => {
    const r = await getVms('{.spec.cpus}');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('6\n2\n2\n');
  });

  it("runs a template that addresses .items once on the list, as kubectl's", async () => {
    const r = await getVms('{.items[*].spec.cpus}');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('6 2 2\n');
  });

  it('filters the list', async () => {
    const r = await getVms('{.items[?(@.spec.cpus>2)].metadata.id}');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('db-1\n');
  });

  it('ranges over the list, without a blank line after a template that ends in a newline', async () => {
    const r = await getVms('{range .items[*]}{.metadata.id}{"\\t"}{.spec.host}{"\\n"}{end}');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('db-1\tnode-b\nweb-1\tnode-a\nweb-2\tnode-a\n');
  });

  it('prints nothing for a missing key, as kubectl by default', async () => {
    const r = await getVms('{.metadata.id}:{.spec.memory}');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('db-1:\nweb-1:\nweb-2:\n');
  });

  it('refuses a malformed template before the run with exit 2 and one line', async () => {
    const r = await getVms('{.items[?(@.spec.cpus>2]}');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'cosi: -o jsonpath: bad template "{.items[?(@.spec.cpus>2]}": unterminated filter\n',
    );
  });

  it('exits 1 with one line for a template that cannot run on the data', async () => {
    const r = await getVms('{.items[5]}');
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      'cosi: -o jsonpath: cannot run template "{.items[5]}": array index out of bounds: index 5, length 3',
    ]);
  });
});
