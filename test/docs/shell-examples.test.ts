/**
 * The shell examples of README.md and docs/*.md run, as a reader would type them: each page's
 * `sh` and `console` blocks, in order, in one bash session in a fresh directory holding the
 * repository's `fixtures/`, with `cosi` the built CLI (`bin/cosi.js`, so `dist/` must be
 * current). A `sh` line must exit 0, or the code its comment names (`# ... exit 3 ...`); a
 * `console` block's `$ command` must print what the page shows after it (stdout and stderr
 * together, each line's trailing blanks and wall times aside). A long-running `cosi watch` runs
 * until it has printed its first round, `cosi run` until it has converged or follows a leader;
 * then each is stopped with SIGTERM (`run` must then exit 0). A page that starts etcd
 * (`etcd ... &`, on its default 127.0.0.1:2379) gets a real etcd the test starts on a free port
 * instead, and its commands are pointed there. A block the page marks `<!-- not run: REASON -->`
 * is left out, and the reason is required.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cli } from '../cli/run-cli.js';
import { startEtcd, type EtcdServer } from '../support/etcd-server.js';
import { PAGES, REPO, blocksOf, type DocBlock } from './doc-blocks.js';

const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell']);

/** One command of a page, what it must print (console) or how it must exit (sh). */
interface Step {
  readonly where: string;
  readonly command: string;
  readonly output?: string;
  readonly exitCode?: number;
}

function stepsOf(block: DocBlock): Step[] {
  const where = `${block.page}:${block.line}`;
  if (block.language === 'console') {
    const steps: { command: string; output: string[] }[] = [];
    for (const line of block.text.trimEnd().split('\n')) {
      if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: [] });
      else steps.at(-1)?.output.push(line);
    }
    return steps.map((s) => ({ where, command: s.command, output: s.output.join('\n') }));
  }
  return block.text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'))
    .map((command) => ({
      where,
      command,
      exitCode: Number(/#.*\bexit (\d+)/.exec(command)?.[1] ?? 0),
    }));
}

/**
 * `cosi` in the session: the built CLI. `watch` and `get -w` run until their first line of output,
 * `run` until it logs that it converged or follows a leader (each bounded: 60 s), then is stopped
 * with SIGTERM. A `watch` or `get -w` still running by then counts as a success (it ends as the
 * signal ends it); `run` must stop cleanly, with exit code 0.
 */
const PRELUDE = `
export NO_COLOR=1
# A session ended early (the test's timeout) takes what it started in the background with it.
trap 'kill $(jobs -p) 2>/dev/null; exit 143' TERM
cosi() {
  local ready streaming=0
  case "$1 $* " in
    'watch '*) ready=''; streaming=1 ;;
    'get '*' -w '*|'get '*' --watch '*) ready=''; streaming=1 ;;
    'run '*) ready='converged in|following' ;;
    *) node "$COSI_BIN" "$@"; return ;;
  esac
  local out; out=$(mktemp)
  node "$COSI_BIN" "$@" > "$out" 2>&1 &
  local pid=$! i
  for i in $(seq 1200); do
    grep -Eq "$ready" "$out" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  local running=0
  kill -0 "$pid" 2>/dev/null && running=1 && kill -TERM "$pid"
  wait "$pid"; local code=$?
  cat "$out"; rm -f "$out"
  if [ "$running" = 1 ] && [ "$streaming" = 1 ]; then return 0; fi
  return "$code"
}
`;

/** Runs the steps in one bash session; each step's output and exit code. */
async function runSteps(
  steps: readonly Step[],
  cwd: string,
): Promise<{ output: string; code: number }[]> {
  const script = [
    PRELUDE,
    ...steps.map(
      (step, i) =>
        `printf '\\n@@step ${i}\\n'\n{ ${step.command}\n} 2>&1\nprintf '\\n@@end ${i} %d\\n' $?`,
    ),
  ].join('\n');
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(
      'bash',
      ['-c', script],
      {
        cwd,
        env: { ...process.env, COSI_BIN: path.join(REPO, 'bin/cosi.js') },
        timeout: 280_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, out) => (error ? reject(new Error(`bash failed: ${error.message}`)) : resolve(out)),
    ),
  );
  return steps.map((_, i) => {
    const start = stdout.indexOf(`\n@@step ${i}\n`);
    const end = /\n@@end (\d+) (\d+)\n/g;
    end.lastIndex = start;
    const found = end.exec(stdout);
    if (start < 0 || !found) return { output: stdout.slice(Math.max(start, 0)), code: -1 };
    const output = stdout.slice(start + `\n@@step ${i}\n`.length, found.index);
    return { output, code: Number(found[2]) };
  });
}

/**
 * Text as compared: no trailing blanks on a line or at the end, wall times as `<t>`, and the
 * place of the cosi that ran (this repository) as the pages write it, `/path/to/cosi`.
 */
function normalised(text: string): string {
  return text
    .replace(/wall time \d+(\.\d+)?m?s/g, 'wall time <t>')
    .replaceAll(REPO, '/path/to/cosi')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trimEnd();
}

const PAGE_STEPS = PAGES.map((page) => {
  const blocks = blocksOf(page).filter(
    (b) => SHELL_LANGUAGES.has(b.language) || b.language === 'console',
  );
  return {
    page,
    notRun: blocks.filter((b) => b.notRun !== undefined),
    steps: blocks.filter((b) => b.notRun === undefined).flatMap(stepsOf),
  };
});

/** The address the pages give etcd, and the step that starts it. */
const PAGE_ETCD = '127.0.0.1:2379';
const STARTS_ETCD = /^etcd .*&/;

/** The steps, with a page's own etcd replaced by the test's at `address`. */
function onTestEtcd(steps: readonly Step[], address: string): Step[] {
  return steps.map((step) => ({
    ...step,
    command: STARTS_ETCD.test(step.command) ? 'true' : step.command.replaceAll(PAGE_ETCD, address),
  }));
}

let dir: string;
const servers: EtcdServer[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-doc-shell-'));
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await rm(dir, { recursive: true, force: true });
});

it('finds the shell examples: the first project, and every command page', () => {
  const withSteps = PAGE_STEPS.filter((p) => p.steps.length > 0).map((p) => p.page);
  expect(withSteps).toEqual(
    expect.arrayContaining([
      'README.md',
      'docs/commands.md',
      'docs/etcd.md',
      'docs/explain.md',
      'docs/kubernetes.md',
      'docs/watch.md',
    ]),
  );
  expect(PAGE_STEPS.find((p) => p.page === 'README.md')?.steps[0]?.command).toBe(
    'cosi init my-project',
  );
});

it("keeps README's quick start to two set-up commands: the example converges, CI runs the tests", async () => {
  const quickStart = blocksOf('README.md')[0];
  const commands = (quickStart?.text ?? '')
    .trim()
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, ''));
  expect(commands).toHaveLength(2);
  const example = /^npm ci && node bin\/cosi\.js (apply -f fixtures\/\S+)$/.exec(commands[0] ?? '');
  expect(example, 'the first sets up and runs an example of fixtures/').not.toBeNull();
  const applied = await cli((example?.[1] ?? '').split(' '));
  expect(applied.stderr).toMatch(/^converged, /m);
  expect(applied.code).toBe(0);
  expect(commands[1]).toBe('npm test');
  const ci = await readFile(path.join(REPO, '.ci/run'), 'utf8');
  expect(ci.trimEnd().split('\n').at(-1)).toBe('npm test');
}, 60_000);

it('gives a reason for every block it does not run', () => {
  for (const { notRun } of PAGE_STEPS) {
    for (const block of notRun) {
      expect(block.notRun?.length, `${block.page}:${block.line}`).toBeGreaterThan(15);
    }
  }
});

it.each(PAGE_STEPS.filter((p) => p.steps.length > 0))(
  'runs the shell examples of $page',
  async ({ page, steps }) => {
    const cwd = path.join(dir, page.replace(/[/.]/g, '-'));
    await mkdir(cwd);
    await symlink(path.join(REPO, 'fixtures'), path.join(cwd, 'fixtures'));
    let run = steps;
    if (steps.some((step) => STARTS_ETCD.test(step.command))) {
      const etcd = await startEtcd();
      servers.push(etcd);
      run = onTestEtcd(steps, new URL(etcd.endpoint).host);
    }
    const results = await runSteps(run, cwd);
    const problems: string[] = [];
    steps.forEach((step, i) => {
      const { output, code } = results[i] ?? { output: '', code: -1 };
      if (step.output !== undefined) {
        if (normalised(output) !== normalised(step.output)) {
          problems.push(
            `${step.where}: $ ${step.command}\n--- the page shows\n${step.output}\n--- it printed\n${output}`,
          );
        }
      } else if (code !== step.exitCode) {
        problems.push(
          `${step.where}: ${step.command}\nexited ${code}, expected ${step.exitCode}:\n${output}`,
        );
      }
    });
    expect(problems.join('\n\n')).toBe('');
  },
  300_000,
);
