/**
 * JMESPath as Kyverno reads it: the original grammar. The parser cosi uses reads the community
 * edition, a superset; what only that edition has is refused, and what Kyverno's policies write
 * is taken.
 */
import { describe, expect, it } from 'vitest';
import { kyvernoJmespathError } from '../../../src/loaders/kubernetes/kyverno-jmespath.js';

describe("Kyverno's JMESPath", () => {
  it("takes what Kyverno's policies write", () => {
    for (const query of [
      'request.object.metadata.labels."app.kubernetes.io/name" || \'\'',
      'request.object.spec.containers[].image | length(@)',
      'request.object.spec.[containers, initContainers, ephemeralContainers][].securityContext',
      "split(image, ':')[-1]",
      'items[::-1] | [0]',
      'request.userInfo.{groups: groups, username: username} | to_string(@)',
      "images.containers.*.registry | [?@ != 'ghcr.io']",
      'request.object.spec.containers[?securityContext.privileged == `true`].name',
      "regex_match('^[0-9]+$', 'null')",
      'a && b || c',
      '!(contains(@, `"x"`))',
      '&name',
    ]) {
      expect([query, kyvernoJmespathError(query)]).toEqual([query, undefined]);
    }
  });

  it('refuses what only the community edition reads, saying what Kyverno has instead', () => {
    expect(kyvernoJmespathError('request.object.metadata.labels.app-name')).toContain(
      'a key with "-" is quoted: labels."app-name"',
    );
    expect(kyvernoJmespathError('spec.replicas * `2`')).toContain('no arithmetic operators');
    expect(kyvernoJmespathError('-spec.replicas')).toContain('no arithmetic operators');
    expect(kyvernoJmespathError('$.spec')).toContain('no root reference');
    expect(kyvernoJmespathError('let $x = spec in $x')).toContain('no let expressions');
    expect(kyvernoJmespathError('ready ? `1` : `0`')).toContain('no `? :`');
    // Inside a function's arguments and a filter too.
    expect(kyvernoJmespathError('length(items[?a-b])')).toContain('no arithmetic operators');
  });

  it('says why a query does not parse', () => {
    expect(kyvernoJmespathError('spec.containers[?name == ')).toBe(
      'Kyverno refuses the policy: invalid JMESPath query: the query ends too soon (an unclosed (, [ or {, or an operator with nothing after it)',
    );
    expect(kyvernoJmespathError('spec.containers name')).toContain('UnquotedIdentifier');
    expect(kyvernoJmespathError('`not json`')).toContain('JSON');
  });

  it('names a function Kyverno does not have, with the one meant, as a fault of each request', () => {
    expect(kyvernoJmespathError('toUpper(request.object.metadata.name)')).toBe(
      "Kyverno has no function toUpper (did you mean to_upper?): each request's rule fails on it",
    );
    expect(kyvernoJmespathError("regex_mach('^a', 'b')")).toContain('(did you mean regex_match?)');
    expect(kyvernoJmespathError('items[?starts_with(name, `"a"`)] | frobnicate(@)')).toBe(
      "Kyverno has no function frobnicate: each request's rule fails on it",
    );
    // A field called as a function in a subexpression is one too.
    expect(kyvernoJmespathError('time.Now()')).toContain('no function Now');
  });
});
