import { describe, expect, it } from 'vitest';
import {
  createDefinition,
  DefinitionError,
  DefinitionRegistry,
  TypeResolutionError,
} from '../../../src/index.js';
import { resourceDefinitionDefinition } from '../../../src/engine/resource/definition.js';

function ruleOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof DefinitionError) return error.rule;
    throw error;
  }
  return undefined;
}

describe('resource definitions', () => {
  // Ported from cosi-project/runtime pkg/resource/meta/resource_definition_test.go TestRDSpec
  it('derives the display type and aliases the way COSI does, explicit aliases first', () => {
    const rd = resourceDefinitionDefinition;
    expect(rd.displayType).toBe('ResourceDefinition');
    expect(rd.aliases).toEqual(['api-resources', 'resourcedefinition', 'rd', 'rds']);
    expect(rd.allAliases).toEqual([
      'resourcedefinitions',
      'resourcedefinitions.meta',
      'resourcedefinitions.meta.cosi',
      'api-resources',
      'resourcedefinition',
      'rd',
      'rds',
    ]);
    expect(rd.id).toBe('resourcedefinitions.meta.cosi.dev');
  });

  it('adds the acronym with an s only when it does not already end in S', () => {
    expect(createDefinition({ type: 'VMs.example.org' }).aliases).toEqual(['vm', 'vms']);
    expect(createDefinition({ type: 'NetworkConfigs.example.org' }).aliases).toEqual([
      'networkconfig',
      'nc',
      'ncs',
    ]);
    expect(createDefinition({ type: 'MachineStatuses.example.org' }).aliases).toEqual([
      'machinestatus',
      'ms',
    ]);
  });

  it('puts explicit aliases before the derived ones', () => {
    const d = createDefinition({ type: 'VMs.example.org', aliases: ['Machine'] });
    expect(d.aliases).toEqual(['machine', 'vm', 'vms']);
    expect(d.allAliases).toEqual(['vms', 'vms.example', 'machine', 'vm']);
  });

  it('keeps explicit aliases and can skip the derived ones', () => {
    const d = createDefinition({
      type: 'Hosts.example.org',
      aliases: ['Machine'],
      skipAutomaticAliases: true,
    });
    expect(d.aliases).toEqual(['machine']);
    expect(d.allAliases).toEqual(['machine']);
  });

  it('rejects invalid definitions naming the rule that failed', () => {
    expect(ruleOf(() => createDefinition({ type: 'VMs' }))).toBe('missing-suffix');
    expect(ruleOf(() => createDefinition({ type: '.example.org' }))).toBe('empty-name');
    expect(ruleOf(() => createDefinition({ type: 'VMs.' }))).toBe('empty-suffix');
    expect(ruleOf(() => createDefinition({ type: 'vms.example.org' }))).toBe('name-not-camel-case');
    expect(ruleOf(() => createDefinition({ type: 'V_Ms.example.org' }))).toBe('invalid-name');
    expect(ruleOf(() => createDefinition({ type: 'VMs.Example.org' }))).toBe('invalid-suffix');
    expect(ruleOf(() => createDefinition({ type: 'Host.example.org' }))).toBe('name-not-plural');
    expect(
      ruleOf(() =>
        createDefinition({ type: 'Hosts.example.org', sensitivity: 'secret' as 'sensitive' }),
      ),
    ).toBe('unknown-sensitivity');
    expect(ruleOf(() => createDefinition({ type: 'Hosts.example.org' }))).toBeUndefined();
  });

  it("takes a Kubernetes kind's group as the API server does: labels of one character, or starting with a digit", () => {
    const kubernetes = {
      apiVersion: 'ec2.aws.m.upbound.io/v1beta1',
      kind: 'VPC',
      namespaced: true,
    };
    expect(createDefinition({ type: 'VPCs.ec2.aws.m.upbound.io', kubernetes }).id).toBe(
      'vpcs.ec2.aws.m.upbound.io',
    );
    expect(
      createDefinition({
        type: 'Items.1password.com',
        kubernetes: { apiVersion: '1password.com/v1', kind: 'Item', namespaced: true },
      }).type,
    ).toBe('Items.1password.com');
    // COSI's own types keep COSI's rule.
    expect(ruleOf(() => createDefinition({ type: 'VPCs.ec2.aws.m.upbound.io' }))).toBe(
      'invalid-suffix',
    );
    expect(ruleOf(() => createDefinition({ type: 'VPCs.Ec2.io', kubernetes }))).toBe(
      'invalid-suffix',
    );
  });

  it('resolves any alias case-insensitively and reports unknown and ambiguous names', () => {
    const registry = new DefinitionRegistry([
      createDefinition({ type: 'VMs.example.org' }),
      createDefinition({ type: 'VMs.other.org' }),
      createDefinition({ type: 'NetworkConfigs.example.org' }),
    ]);
    expect(registry.resolve('NC').type).toBe('NetworkConfigs.example.org');
    expect(registry.resolve('networkconfigs.example').type).toBe('NetworkConfigs.example.org');
    expect(registry.resolve('VMs.other.org').type).toBe('VMs.other.org');
    expect(() => registry.resolve('vm')).toThrow(TypeResolutionError);
    try {
      registry.resolve('vm');
    } catch (error) {
      expect((error as TypeResolutionError).code).toBe('ambiguous-type');
      expect((error as TypeResolutionError).candidates).toEqual([
        'VMs.example.org',
        'VMs.other.org',
      ]);
    }
    expect(() => registry.resolve('nope')).toThrow(/not registered/);
  });

  it("resolves kubectl's singular.group form of a cosi type, which tells apart types of the same name", () => {
    const registry = new DefinitionRegistry([
      createDefinition({ type: 'VMs.example.org' }),
      createDefinition({ type: 'VMs.other.org' }),
      createDefinition({ type: 'MachineStatuses.example.org' }),
    ]);
    expect(registry.resolve('vm.example.org').type).toBe('VMs.example.org');
    expect(registry.resolve('VM.other.org').type).toBe('VMs.other.org');
    expect(registry.resolve('machinestatus.example.org').type).toBe('MachineStatuses.example.org');
    expect(() => registry.resolve('vm.example')).toThrow(/not registered/);
  });
});
