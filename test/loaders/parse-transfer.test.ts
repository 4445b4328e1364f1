import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDefinition } from '../../src/index.js';
import { ignorePatterns } from '../../src/loaders/ignore-file.js';
import { ManifestReader } from '../../src/loaders/manifest-reader.js';
import { parseManifest } from '../../src/loaders/parse-manifest.js';
import {
  isParseOf,
  toTransfer,
  revivedParse,
  type ParseTransfer,
} from '../../src/loaders/parse-transfer.js';
import {
  parseManifestOrTakePreparsed,
  providePreparsedManifests,
} from '../../src/loaders/preparsed-manifests.js';
import { preparseManifests } from '../../src/cli/preparse-manifests.js';

/** What a parse says, positions included, as data to compare. */
function observed(text: string, parse: ReturnType<typeof parseManifest>) {
  return {
    file: parse.file,
    findings: parse.findings,
    documents: parse.documents.map((doc) => ({
      index: doc.index,
      position: doc.position,
      value: doc.value,
      hasErrors: doc.hasErrors,
      places: ['', '/metadata', '/metadata/id', '/spec/size', '/spec/list/1', '/nope/x'].map(
        (pointer) => [doc.locate(pointer), doc.locate(pointer, 'key')],
      ),
      text: doc.locateText('/spec/note', 'b', 0),
    })),
    text: text.length,
  };
}

/** A parse as data, as the main thread sends it. */
const transferOf = (text: string, file: string): ParseTransfer =>
  toTransfer(parseManifest(text, file), text);

/** A structured clone, as `postMessage` makes one between threads. */
const crossed = (transfer: ParseTransfer): ParseTransfer => structuredClone(transfer);

const STREAMS: Record<string, string> = {
  plain: 'metadata: {type: vms.vm.example, id: a}\nspec:\n  size: 1\n  note: "a b c"\n',
  several:
    '---\nmetadata: {id: a}\nspec: {size: 1, list: [x, y]}\n---\n# only a comment\n---\nmetadata:\n  id: b\nspec:\n  note: |\n    abc b\n',
  boms: '\ufeffmetadata: {id: a}\n---\n\ufeffmetadata: {id: b}\nspec: {size: 2}\n',
  errors: 'metadata: {id: a\nspec: [\n---\nmetadata: {id: ok}\n__proto__: {x: 1}\n',
  aliases: 'base: &b {size: 3, list: [p, q]}\nmetadata: {id: c}\nspec: *b\n',
  empty: '# nothing\n',
};

describe('a parse made on another thread', () => {
  for (const [name, text] of Object.entries(STREAMS)) {
    it(`is, once across, the parse made here: ${name}`, () => {
      const here = parseManifest(text, 'm.yaml');
      const there = revivedParse(crossed(transferOf(text, 'm.yaml')));
      expect(observed(text, there)).toEqual(observed(text, here));
    });
  }

  it('is the parse of its text, name and limits only', () => {
    const transfer = transferOf(STREAMS.plain ?? '', 'm.yaml');
    expect(isParseOf(transfer, STREAMS.plain ?? '', 'm.yaml', {})).toBe(true);
    expect(isParseOf(transfer, `${STREAMS.plain}#\n`, 'm.yaml', {})).toBe(false);
    expect(isParseOf(transfer, STREAMS.plain ?? '', 'n.yaml', {})).toBe(false);
    expect(isParseOf(transfer, STREAMS.plain ?? '', 'm.yaml', { maxAliasCount: 5 })).toBe(false);
  });

  it('is taken once, for its own text: another text is parsed here', () => {
    const text = 'metadata: {id: taken}\n';
    // A transfer doctored after the parse shows which parse the load used.
    const doctored = (id: string): ParseTransfer => {
      const transfer = transferOf(text, 'once.yaml');
      return {
        ...transfer,
        documents: transfer.documents.map((d) => ({ ...d, value: { metadata: { id } } })),
      };
    };
    providePreparsedManifests([doctored('from-main')]);
    expect(parseManifestOrTakePreparsed(text, 'once.yaml').documents[0]?.value).toEqual({
      metadata: { id: 'from-main' },
    });
    // Taken already: parsed here.
    expect(parseManifestOrTakePreparsed(text, 'once.yaml').documents[0]?.value).toEqual({
      metadata: { id: 'taken' },
    });
    providePreparsedManifests([doctored('stale')]);
    const edited = 'metadata: {id: edited}\n';
    expect(parseManifestOrTakePreparsed(edited, 'once.yaml').documents[0]?.value).toEqual({
      metadata: { id: 'edited' },
    });
  });
});

describe("the main thread's parses ahead, taken by the run's reader", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-preparse-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const command = (manifestPaths: string[], flags: Record<string, unknown> = {}) => ({
    name: 'check',
    args: manifestPaths,
    flags,
    manifestPaths,
  });

  it('are of the files the reader reads, by the same names, which it takes', async () => {
    await writeFile(
      path.join(dir, 'a.yaml'),
      'metadata: {type: Hosts.example.org, id: a}\nspec: {}\n',
    );
    await writeFile(
      path.join(dir, 'b.yml'),
      'metadata: {type: Hosts.example.org, id: b}\nspec: {}\n',
    );
    await writeFile(path.join(dir, 'skipped.yaml'), 'metadata: {type: Hosts.example.org, id: s}\n');
    await writeFile(path.join(dir, 's.cosi-test.yaml'), 'scenario: {}\n');
    await writeFile(path.join(dir, '.cosiignore'), 'skipped.yaml\n');
    const parses = await preparseManifests(command(['.']), dir);
    // As a run reads them: the same walk, with the same patterns.
    const reader = new ManifestReader(['.'], {
      cwd: dir,
      ignore: await ignorePatterns({ cwd: dir }),
      definitions: [createDefinition({ type: 'Hosts.example.org' })],
    });
    expect(parses.map((p) => p.file)).toEqual(['a.yaml', 'b.yml']);
    // Doctored, to see the reader take them.
    providePreparsedManifests(
      parses.map((p) => ({
        ...p,
        documents: p.documents.map((d) => ({
          ...d,
          value: { ...(d.value as object), spec: { from: 'main' } },
        })),
      })),
    );
    const read = await reader.read();
    expect(read.files).toEqual(['a.yaml', 'b.yml']);
    expect(read.resources.map((r) => r.resource.spec)).toEqual([
      { from: 'main' },
      { from: 'main' },
    ]);
  });

  it('stop at their budget, skip the standard input, and never throw', async () => {
    await writeFile(path.join(dir, 'a.yaml'), 'metadata: {id: a}\n');
    await writeFile(path.join(dir, 'b.yaml'), 'metadata: {id: b}\n');
    expect((await preparseManifests(command(['.']), dir, 20)).map((p) => p.file)).toEqual([
      'a.yaml',
    ]);
    expect(await preparseManifests(command(['-']), dir)).toEqual([]);
    expect(await preparseManifests(command(['missing/']), dir)).toEqual([]);
    expect(
      (await preparseManifests(command([], { file: ['b.yaml'] }), dir)).map((p) => p.file),
    ).toEqual([]);
    expect(
      (await preparseManifests({ ...command([]), manifestPaths: ['b.yaml'] }, dir)).map(
        (p) => p.file,
      ),
    ).toEqual(['b.yaml']);
  });
});
