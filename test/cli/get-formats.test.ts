import { describe, expect, it } from 'vitest';
import { parseLabelSelector } from '../../src/cli/label-selector.js';
import { cli } from './run-cli.js';

const VM_NETWORK = ['-f', 'fixtures/vm-network', '-q'];

describe('kubectl output formats', () => {
  it('-o name prints type/id, one per line', async () => {
    const r = await cli(['get', 'vm', ...VM_NETWORK, '-o', 'name']);
    expect(r.stdout).toBe('vms.example.org/db-1\nvms.example.org/web-1\nvms.example.org/web-2\n');
  });

  it('-o name prints a Kubernetes kind as kubectl does: its kind in lower case, then its group', async () => {
    const r = await cli(['apply', '-f', 'fixtures/kubernetes', '-q', '-o', 'name']);
    const names = r.stdout.split('\n');
    expect(names).toEqual(
      expect.arrayContaining([
        'configmap/shop-settings',
        'deployment.apps/shop',
        'certificate.cert-manager.io/api',
        'webapp.example.org/shop',
        'hosts.example.org/web-1',
      ]),
    );
    // What kubectl takes back: `kubectl get deployment.apps/shop`.
    const one = await cli([
      'get',
      'deployment.apps/shop',
      '-f',
      'fixtures/kubernetes',
      '-q',
      '-o',
      'name',
    ]);
    expect(one.stdout).toBe('deployment.apps/shop\n');
    // And the forms that name the version: `RESOURCE.VERSION.GROUP`, `KIND.VERSION.GROUP`.
    for (const name of ['deployments.v1.apps/shop', 'deployment.v1.apps/shop']) {
      const versioned = await cli(['get', name, '-f', 'fixtures/kubernetes', '-q', '-o', 'name']);
      expect(versioned.stdout).toBe('deployment.apps/shop\n');
    }
    const other = await cli(['get', 'deployments.v2.apps', '-f', 'fixtures/kubernetes', '-q']);
    expect(other.code).toBe(2);
  });

  it('-o wide adds the labels and the finalizers', async () => {
    const r = await cli(['get', 'vm', 'db-1', ...VM_NETWORK, '-o', 'wide']);
    const [header = '', row = ''] = r.stdout.split('\n');
    expect(header).toMatch(/\bLABELS\s+FINALIZERS$/);
    expect(row).toMatch(/\btier=data\s+\S*PlacementController\S*$/);
  });

  it('-o custom-columns prints the columns asked for, <none> where a value is missing', async () => {
    const r = await cli([
      'get',
      'vm',
      ...VM_NETWORK,
      '-o',
      'custom-columns=ID:.metadata.id,CPUS:{.spec.cpus},ZONE:.metadata.labels.zone',
    ]);
    expect(r.stdout.split('\n').map((l) => l.split(/\s+/).join(' '))).toEqual([
      'ID CPUS ZONE',
      'db-1 6 <none>',
      'web-1 2 <none>',
      'web-2 2 <none>',
      '',
    ]);
    const bad = await cli(['get', 'vm', ...VM_NETWORK, '-o', 'custom-columns=ID']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('-o custom-columns: expected NAME:PATH');
  });
});

describe('-l label selectors', () => {
  it('select in get and apply, as kubectl does', async () => {
    const web = await cli(['get', 'vm', ...VM_NETWORK, '-l', 'tier=web', '-o', 'name']);
    expect(web.stdout).toBe('vms.example.org/web-1\nvms.example.org/web-2\n');
    const notWeb = await cli(['apply', ...VM_NETWORK, '-t', 'vm', '-l', 'tier!=web', '-o', 'name']);
    expect(notWeb.stdout).toBe('vms.example.org/db-1\n');
    const bad = await cli(['get', 'vm', ...VM_NETWORK, '-l', 'tier in web']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('-l: invalid selector');
  });

  it('follow Kubernetes semantics: != and notin match a resource without the label', () => {
    const labels = { tier: 'web', zone: 'eu-1' };
    const match = (selector: string, l: Record<string, string> = labels) =>
      parseLabelSelector(selector)(l);
    expect(match('tier=web,zone==eu-1')).toBe(true);
    expect(match('tier in (db, web)')).toBe(true);
    expect(match('tier notin (web)')).toBe(false);
    expect(match('team!=a')).toBe(true);
    expect(match('team notin (a,b)')).toBe(true);
    expect(match('tier,!team')).toBe(true);
    expect(match('!tier')).toBe(false);
    expect(match('tier=web', {})).toBe(false);
    // A set without its parentheses says how to write it, as kubectl needs it.
    expect(() => parseLabelSelector('tier in web')).toThrow(
      'a set is written in parentheses: tier in (web)',
    );
  });
});
