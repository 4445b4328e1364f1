import { describe, expect, it } from 'vitest';
import { boundFinding, createFinding } from '../../src/loaders/finding.js';
import {
  MAX_MESSAGE_LENGTH,
  shorten,
  shortenLines,
  shortenMessage,
  shortenPointer,
  shortenValues,
} from '../../src/loaders/shorten.js';

describe('shortenMessage', () => {
  it('leaves a short message as it is', () => {
    expect(shortenMessage('must be integer')).toBe('must be integer');
  });

  it('keeps the start and the end of a long one and says how much was cut', () => {
    const message = `Unresolved tag: !${'x'.repeat(10_000)} (quote it)`;
    const short = shortenMessage(message);
    expect(short.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(short.startsWith('Unresolved tag: !xxx')).toBe(true);
    expect(short.endsWith('xxx (quote it)')).toBe(true);
    expect(short).toMatch(/\[\d+ characters cut\]/);
  });

  it('never splits a character written as a surrogate pair', () => {
    for (let n = 100; n < 110; n++) {
      const short = shortenMessage(`${'a'.repeat(n % 2)}${'😀'.repeat(n)}`);
      // A lone surrogate does not survive a round trip through UTF-8.
      expect(Buffer.from(short, 'utf8').toString('utf8')).toBe(short);
    }
  });
});

describe('shortenValues', () => {
  it('cuts a long quoted value and keeps every word of the message', () => {
    const message = `controller Deployer failed: the image "${'i'.repeat(500)}" cannot be pulled; check the registry`;
    expect(shortenValues(message)).toBe(
      `controller Deployer failed: the image "${'i'.repeat(60)}... (500 characters)" cannot be pulled; check the registry`,
    );
  });

  it('cuts a long unbroken word, a value no one quoted', () => {
    expect(shortenValues(`Unresolved tag: !${'x'.repeat(10_000)} (quote it)`)).toBe(
      `Unresolved tag: !${'x'.repeat(59)}... (10001 characters) (quote it)`,
    );
  });

  it('keeps a path whole, and a command that names paths: a cut one names no file', () => {
    const file = `tekton/examples/v1/pipelineruns/beta/${'pipelinerun-with-matrix-'.repeat(4)}x.yaml`;
    const message = `T(a) is already defined at ${file}:4:9 (check each on its own: cosi check --each b/c ${file})`;
    expect(shortenValues(message)).toBe(message);
    const resource = `CompositeResourceDefinitions.v2.apiextensions.crossplane.io(testresources.test.example.org)`;
    expect(shortenValues(`${resource} is already defined`)).toBe(`${resource} is already defined`);
    // A path-like word past any real path's length is still a value to cut.
    const huge = `a/${'b'.repeat(2000)}`;
    expect(shortenValues(`at ${huge}`)).toBe(`at ${shorten(huge)}`);
  });

  it("keeps a schema's pattern whole, quoted in single quotes: a cut one cannot be checked", () => {
    const pattern = `'^(System|([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]))$'`;
    const message = `Invalid value: "MySystem": spec.validation.wellKnownCACertificates in body should match ${pattern}`;
    expect(shortenValues(message)).toBe(message);
    // Past any real pattern's length it is cut as any word is.
    const huge = `'${'a'.repeat(2000)}'`;
    expect(shortenValues(`should match ${huge}`)).toBe(`should match ${shorten(huge)}`);
  });

  it('leaves a value shortened already, and a long message of short words, as they are', () => {
    const shortened = `unknown field ${JSON.stringify(shorten('k'.repeat(500)))} in spec`;
    expect(shortenValues(shortened)).toBe(shortened);
    const words = 'a message of many short words '.repeat(20);
    expect(shortenValues(words)).toBe(words);
  });
});

describe('shortenLines', () => {
  it('bounds each line and the number of lines', () => {
    const text = Array.from({ length: 50 }, (_, i) => `${i}: ${'v'.repeat(1000)}`).join('\n');
    const lines = shortenLines(text).split('\n');
    expect(lines).toHaveLength(21);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(lines.at(-1)).toBe('[30 more lines cut]');
  });
});

describe('shortenPointer', () => {
  it('cuts a long key and keeps the others', () => {
    expect(shortenPointer(`/spec/${'k'.repeat(10_000)}/0`)).toBe(`/spec/${'k'.repeat(59)}…/0`);
    // A long field name that is real stays whole: the pointer still points into the document.
    const field =
      '/spec/prometheusOperatorAdmissionWebhookConfig/machines_v1beta1_machine_openshift_io';
    expect(shortenPointer(field)).toBe(field);
    expect(shortenPointer('/spec/disks/0')).toBe('/spec/disks/0');
  });
});

describe('boundFinding', () => {
  it('is what createFinding makes: message, pointers and diff lines bounded', () => {
    const long = 'x'.repeat(1_000_000);
    const finding = createFinding({
      code: 'yaml-syntax',
      message: `Block scalar header includes extra characters: ${long}`,
      file: 'a.yaml',
      line: 1,
      col: 1,
      pointer: `/spec/${long}`,
      related: { file: 'b.yaml', line: 1, col: 1, pointer: `/${long}` },
    });
    expect(finding.message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(finding.pointer.length).toBeLessThan(80);
    expect(finding.related?.pointer.length).toBeLessThan(80);
    const diffed = boundFinding({ ...finding, diff: `-${long}\n+${long}` });
    for (const line of diffed.diff?.split('\n') ?? []) expect(line.length).toBeLessThan(200);
  });

  it('returns a short finding itself', () => {
    const finding = createFinding({
      code: 'unknown-key',
      message: 'unknown key "x"',
      file: 'a.yaml',
      line: 1,
      col: 1,
      pointer: '/x',
    });
    expect(boundFinding(finding)).toBe(finding);
  });

  it('keeps a long message whole but for the values it quotes', () => {
    const message = `${'a long explanation '.repeat(20)}of ${JSON.stringify('v'.repeat(1000))}`;
    const bound = boundFinding({
      ...createFinding({
        code: 'unknown-key',
        message: 'x',
        file: '',
        line: 0,
        col: 0,
        pointer: '',
      }),
      message,
    });
    expect(bound.message).toBe(
      `${'a long explanation '.repeat(20)}of "${'v'.repeat(60)}... (1000 characters)"`,
    );
  });
});
