import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layout's rules, read from the source's own imports (static, type-only and `import()` with a
 * literal): data flows one way (files → loaders → app → engine → report → cli), the public barrel
 * imports no application code, and no files import each other in a circle.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

/** Each file of src/ (relative, with `/`) and the files of src/ it imports. */
function importGraph(): Map<string, string[]> {
  const files = sourceFiles(src);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set<string>();
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] as string;
      if (!specifier.startsWith('.')) continue;
      const base = resolve(dirname(file), specifier).replace(/\.js$/, '');
      const target = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((path) =>
        known.has(path),
      );
      if (target !== undefined) targets.add(name(target));
    }
    graph.set(name(file), [...targets].sort());
  }
  return graph;
}

const name = (file: string): string => relative(src, file).split('\\').join('/');

/** The strongly connected components of more than one file (Tarjan's algorithm). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return found;
}

/** The imports from files under `from` into files under any of `into`, as `a -> b` lines. */
function crossings(graph: Map<string, string[]>, from: string, into: readonly string[]): string[] {
  const lines: string[] = [];
  for (const [file, targets] of graph) {
    if (!file.startsWith(from)) continue;
    for (const target of targets) {
      if (into.some((prefix) => target.startsWith(prefix))) lines.push(`${file} -> ${target}`);
    }
  }
  return lines;
}

/** The subfolder of `folder` that a file is in (`cel/`), or `undefined` for a file directly in it. */
function subfolderOf(file: string, folder: string): string | undefined {
  const rest = file.slice(folder.length);
  const slash = rest.indexOf('/');
  return slash === -1 ? undefined : rest.slice(0, slash + 1);
}

/**
 * How many floors the files of `folder` stand on, and the longest chain of imports, top first.
 * A file that imports no file of the folder is on the first floor; any other one floor above the
 * highest it imports. An import between two files of one subfolder (`cel/`, `kubernetes/`) keeps
 * the floor: a subfolder is one part with an inside of its own, counted once each time a chain
 * enters it (and again if the chain leaves and comes back). Type-only imports count.
 */
function floors(graph: Map<string, string[]>, folder: string): { floors: number; chain: string[] } {
  const known = new Map<string, { floors: number; chain: string[] }>();
  const visit = (file: string): { floors: number; chain: string[] } => {
    const seen = known.get(file);
    if (seen !== undefined) return seen;
    let best = { floors: 1, chain: [file] };
    for (const target of graph.get(file) ?? []) {
      if (!target.startsWith(folder)) continue;
      const below = visit(target);
      const part = subfolderOf(file, folder);
      const floorsHere =
        below.floors + (part !== undefined && part === subfolderOf(target, folder) ? 0 : 1);
      if (floorsHere > best.floors) best = { floors: floorsHere, chain: [file, ...below.chain] };
    }
    known.set(file, best);
    return best;
  };
  let top = { floors: 0, chain: [] as string[] };
  for (const file of [...graph.keys()].sort()) {
    if (!file.startsWith(folder)) continue;
    const here = visit(file);
    if (here.floors > top.floors) top = here;
  }
  return top;
}

/**
 * The top-level functions of a source file longer than `limit` lines, as `name (N lines)`: a
 * declaration at the start of a line, up to the first line that is a lone `}`.
 */
function longFunctions(file: string, limit: number): string[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const found: string[] = [];
  let start: { name: string; line: number } | undefined;
  lines.forEach((line, i) => {
    const declared = /^(?:export )?(?:async )?function\*? ?(\w+)/.exec(line);
    if (declared !== null) start = { name: declared[1] as string, line: i };
    else if (line === '}' && start !== undefined) {
      const length = i - start.line + 1;
      if (length > limit) found.push(`${start.name} (${length} lines)`);
      start = undefined;
    }
  });
  return found;
}

describe('floors', () => {
  it('counts a chain of imports, and a run inside one subfolder as one floor', () => {
    const graph = new Map([
      ['l/top.ts', ['l/a/one.ts', 'l/low.ts']],
      ['l/a/one.ts', ['l/a/two.ts']],
      ['l/a/two.ts', ['l/mid.ts']],
      ['l/mid.ts', ['l/low.ts', 'outside.ts']],
      ['l/low.ts', []],
      ['outside.ts', []],
    ]);
    expect(floors(graph, 'l/')).toEqual({
      floors: 4,
      chain: ['l/top.ts', 'l/a/one.ts', 'l/a/two.ts', 'l/mid.ts', 'l/low.ts'],
    });
  });
});

describe('the layout of src/', () => {
  const graph = importGraph();

  it('reads the imports it checks', () => {
    // The rules below hold vacuously on a graph with no edges: make sure the reader sees some.
    expect(graph.get('index.ts')).toContain('engine/state/state.ts');
    expect(graph.get('cli/program.ts')?.length).toBeGreaterThan(0);
  });

  it('has no files that import each other in a circle', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('keeps the engine free of everything above it', () => {
    expect(
      crossings(graph, 'engine/', ['loaders/', 'app/', 'cli/', 'state-etcd/', 'controllers/']),
    ).toEqual([]);
  });

  it('keeps loaders below app and cli', () => {
    expect(crossings(graph, 'loaders/', ['app/', 'cli/'])).toEqual([]);
  });

  it('keeps app below cli', () => {
    expect(crossings(graph, 'app/', ['cli/'])).toEqual([]);
  });

  it('keeps the state backends and generic controllers below app and cli', () => {
    expect(crossings(graph, 'state-etcd/', ['app/', 'cli/', 'loaders/'])).toEqual([]);
    expect(crossings(graph, 'controllers/', ['app/', 'cli/', 'loaders/'])).toEqual([]);
  });

  it('keeps src/loaders/ at most 8 floors deep', () => {
    const { floors: count, chain } = floors(graph, 'loaders/');
    expect(count, `the longest chain: ${chain.join(' -> ')}`).toBeLessThanOrEqual(8);
  });

  it("compiles kro's RGDs in steps of one concept each, no function of them over 120 lines", () => {
    const kro = join(src, 'loaders', 'kro');
    const long = readdirSync(kro)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) => longFunctions(join(kro, file), 120).map((f) => `${file}: ${f}`));
    expect(long).toEqual([]);
  });

  it('gives the resources pass its spec checker, which would stack floors under it', () => {
    expect(
      crossings(graph, 'loaders/load-resources.ts', [
        'loaders/spec-checker.ts',
        'loaders/definition-schema.ts',
        'loaders/schema-defaults.ts',
        'loaders/kubernetes/check-kubernetes-document.ts',
        'loaders/cel/cel-rule-engine.ts',
        'loaders/cel/cost-budget.ts',
      ]),
    ).toEqual([]);
  });

  it('keeps cosi/testing above app and below cli', () => {
    expect(crossings(graph, 'testing/', ['cli/'])).toEqual([]);
    for (const lower of ['engine/', 'loaders/', 'app/', 'state-etcd/', 'controllers/']) {
      expect(crossings(graph, lower, ['testing/'])).toEqual([]);
    }
  });

  it('exports from the public barrel nothing of app or cli', () => {
    expect(crossings(graph, 'index.ts', ['app/', 'cli/'])).toEqual([]);
  });
});
