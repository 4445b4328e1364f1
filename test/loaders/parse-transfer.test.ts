import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDefinition } from '../../src/index.js';
import { ignorePatterns } from '../../src/loaders/ignore-file.js';
import { ManifestReader } from '../../src/loaders/manifest-reader.js';
import { parseManifest } from '../../src/loaders/parse/parse-manifest.js';
import {
  isParseOf,
  toTransfer,
  revivedParse,
  type ParseTransfer,
} from '../../src/loaders/parse-transfer.js';
import {
  parseManifestOrTakePreparsed,
  providePreparsedManifests,
  providePreparseSource,
} from '../../src/loaders/preparsed-manifests.js';
import { SharedParses, shareParses, type ShareMessage } from '../../src/cli/parse-sharing.js';

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

  it('is, once across, the parse of an excerpt at its origin, and only of the excerpt there', () => {
    const text = STREAMS.several ?? '';
    const origin = { line: 12, col: 7 };
    const here = parseManifest(text, 'm.yaml', { origin });
    const transfer = toTransfer(here, text, { origin });
    expect(observed(text, revivedParse(crossed(transfer)))).toEqual(observed(text, here));
    expect(isParseOf(transfer, text, 'm.yaml', { origin: { ...origin } })).toBe(true);
    expect(isParseOf(transfer, text, 'm.yaml', {})).toBe(false);
    expect(isParseOf(transfer, text, 'm.yaml', { origin: { line: 12, col: 8 } })).toBe(false);
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

describe('the parse shared by the main thread and the worker', () => {
  let dir: string;
  let channel: MessageChannel;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-preparse-'));
    channel = new MessageChannel();
  });
  afterEach(async () => {
    providePreparseSource(undefined);
    channel.port1.close();
    await rm(dir, { recursive: true, force: true });
  });

  const command = (manifestPaths: string[], flags: Record<string, unknown> = {}) => ({
    name: 'check',
    args: manifestPaths,
    flags,
    manifestPaths,
  });

  /** The main thread's end, as `preparse-manifests.ts` makes it. */
  const endpoint = (port: MessagePort) => ({
    postMessage: (message: ShareMessage) => {
      port.postMessage(message);
    },
    on: (event: 'message', listener: (message: ShareMessage) => void) => port.on(event, listener),
    close: () => {
      port.close();
    },
  });

  /** Every message waiting on a port, read as the worker reads them. */
  const received = (port: MessagePort): ShareMessage[] => {
    const out: ShareMessage[] = [];
    for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
      out.push(m.message as ShareMessage);
    }
    return out;
  };

  const summary = (messages: readonly ShareMessage[]) =>
    messages.map((m) =>
      m.kind === 'parse'
        ? `parse ${m.parse.file}`
        : m.kind === 'done'
          ? 'done'
          : `${m.kind} ${m.file}`,
    );

  it('parses the files the reader reads from the last, each claimed first, and says when done', async () => {
    await writeFile(path.join(dir, 'a.yaml'), 'metadata: {type: Hosts.example.org, id: a}\n');
    await writeFile(path.join(dir, 'b.yml'), 'metadata: {type: Hosts.example.org, id: b}\n');
    await writeFile(path.join(dir, 'skipped.yaml'), 'metadata: {id: s}\n');
    await writeFile(path.join(dir, 's.cosi-test.yaml'), 'scenario: {}\n');
    await writeFile(path.join(dir, '.cosiignore'), 'skipped.yaml\n');
    // The worker's end takes no listener: it reads with receiveMessageOnPort, as the worker does.
    const worker = channel.port2;
    await shareParses(command(['.']), dir, endpoint(channel.port1));
    expect(summary(received(worker))).toEqual([
      'claim b.yml',
      'parse b.yml',
      'claim a.yaml',
      'parse a.yaml',
      'done',
    ]);
  });

  it('leaves the files the worker claimed to it, and meets it in the middle', async () => {
    for (const name of ['a', 'b', 'c', 'd']) {
      await writeFile(path.join(dir, `${name}.yaml`), `metadata: {id: ${name}}\n`);
    }
    // The worker started the first two before the main thread got to them.
    channel.port2.postMessage({ kind: 'claim', file: 'a.yaml' } satisfies ShareMessage);
    channel.port2.postMessage({ kind: 'claim', file: 'b.yaml' } satisfies ShareMessage);
    await shareParses(command(['.']), dir, endpoint(channel.port1));
    expect(summary(received(channel.port2))).toEqual([
      'claim d.yaml',
      'parse d.yaml',
      'claim c.yaml',
      'parse c.yaml',
      'done',
    ]);
  });

  it('skips the standard input, and never throws on a path that is not there', async () => {
    await shareParses(command(['-', 'missing/']), dir, endpoint(channel.port1));
    expect(summary(received(channel.port2))).toEqual(['done']);
  });

  it("gives the worker's reader the main thread's parses, and claims the rest for it", async () => {
    await writeFile(
      path.join(dir, 'a.yaml'),
      'metadata: {type: Hosts.example.org, id: a}\nspec: {}\n',
    );
    await writeFile(
      path.join(dir, 'b.yml'),
      'metadata: {type: Hosts.example.org, id: b}\nspec: {}\n',
    );
    const main = channel.port1;
    // The main thread parsed b.yml (doctored, to see the reader take it) and started nothing else.
    const text = 'metadata: {type: Hosts.example.org, id: b}\nspec: {}\n';
    const parse = transferOf(text, 'b.yml');
    main.postMessage({ kind: 'claim', file: 'b.yml' } satisfies ShareMessage);
    main.postMessage({
      kind: 'parse',
      parse: {
        ...parse,
        documents: parse.documents.map((d) => ({
          ...d,
          value: { ...(d.value as object), spec: { from: 'main' } },
        })),
      },
    } satisfies ShareMessage);
    providePreparseSource(new SharedParses(channel.port2));
    const reader = new ManifestReader(['.'], {
      cwd: dir,
      ignore: await ignorePatterns({ cwd: dir }),
      definitions: [createDefinition({ type: 'Hosts.example.org' })],
    });
    const read = await reader.read();
    expect(read.resources.map((r) => r.resource.spec)).toEqual([{}, { from: 'main' }]);
    // The worker parsed a.yaml itself, and said so first.
    expect(summary(received(main))).toEqual(['claim a.yaml']);
  });

  it('waits for a file the main thread started, until it comes or is given up, and not for ever', () => {
    const main = channel.port1;
    let slept = 0;
    const shared = new SharedParses(channel.port2, () => slept++, 30);
    main.postMessage({ kind: 'claim', file: 'gone.yaml' } satisfies ShareMessage);
    main.postMessage({ kind: 'skip', file: 'gone.yaml' } satisfies ShareMessage);
    expect(shared.take('gone.yaml')).toBeUndefined();
    expect(slept).toBe(0);
    // Started and never sent: the wait ends at its bound, and the worker parses it.
    main.postMessage({ kind: 'claim', file: 'slow.yaml' } satisfies ShareMessage);
    expect(shared.take('slow.yaml')).toBeUndefined();
    expect(slept).toBeGreaterThan(0);
    expect(summary(received(main))).toEqual(['claim gone.yaml', 'claim slow.yaml']);
    // Once the main thread is done, nothing is claimed from it any more.
    main.postMessage({ kind: 'done' } satisfies ShareMessage);
    expect(shared.take('late.yaml')).toBeUndefined();
    expect(received(main)).toEqual([]);
  });
});
