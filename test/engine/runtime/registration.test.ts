import { afterEach, describe, expect, it } from 'vitest';
import {
  createRuntime,
  RegistrationError,
  type Controller,
  type QController,
} from '../../../src/index.js';
import {
  createHarness,
  Int,
  intToStr,
  Sentence,
  Str,
  strToSentence,
  type Harness,
} from './test-controllers.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

const writer = (name: string, type: string, kind: 'exclusive' | 'shared'): Controller => ({
  name,
  inputs: [],
  outputs: [{ type, kind }],
  async run() {
    // never woken: no inputs
  },
});

async function registrationProblems(...controllers: Controller[]): Promise<readonly string[]> {
  try {
    await h.runtime.register(...controllers);
  } catch (error) {
    if (error instanceof RegistrationError) return error.problems;
    throw error;
  }
  return [];
}

describe('registration', () => {
  it('refuses two exclusive writers of a type, naming both, and registers nothing', async () => {
    h = createHarness();
    const problems = await registrationProblems(
      writer('Third', Sentence.type, 'exclusive'),
      writer('A', Str.type, 'exclusive'),
      writer('B', Str.type, 'exclusive'),
    );
    expect(problems).toEqual([`controllers "A" and "B" both claim exclusive output ${Str.type}`]);
    expect(h.runtime.controllerNames()).toEqual([]);
  });

  it('refuses a shared writer beside an exclusive one, in either order', async () => {
    h = createHarness();
    await h.runtime.register(writer('A', Str.type, 'exclusive'));
    expect(await registrationProblems(writer('B', Str.type, 'shared'))).toHaveLength(1);
    await h.runtime.register(
      writer('S1', Sentence.type, 'shared'),
      writer('S2', Sentence.type, 'shared'),
    );
    const problems = await registrationProblems(writer('X', Sentence.type, 'exclusive'));
    expect(problems[0]).toContain('"S1", "S2"');
    expect(h.runtime.controllerNames()).toEqual(['A', 'S1', 'S2']);
  });

  it('refuses duplicate names and duplicate inputs, listing every problem at once', async () => {
    h = createHarness();
    await h.runtime.register(intToStr());
    const dupInputs: Controller = {
      ...writer('Dup', Sentence.type, 'exclusive'),
      inputs: [
        { namespace: 'n', type: Int.type, kind: 'weak' },
        { namespace: 'n', type: Int.type, kind: 'strong' },
      ],
    };
    const problems = await registrationProblems(intToStr(), dupInputs);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain('"IntToStrController" is already registered');
    expect(problems.some((p) => p.includes('declares input n/Ints.test.cosi.dev twice'))).toBe(
      true,
    );
  });

  it('refuses input kinds that do not fit the kind of controller', async () => {
    h = createHarness();
    const q: QController = {
      name: 'Q',
      settings: {
        inputs: [{ namespace: 'n', type: Int.type, kind: 'weak' as 'primary' }],
        outputs: [],
      },
      reconcile: async () => undefined,
      mapInput: async () => [],
    };
    const problems = await registrationProblems(q as unknown as Controller);
    expect(problems[0]).toContain('expected one of primary, mapped, mappedDestroyReady');
  });

  it('registers late controllers after start, and they run', async () => {
    h = createHarness();
    await h.runtime.register(intToStr());
    await h.state.create(Int.create('x', { value: 3 }));
    await h.runtime.converge();
    await h.runtime.register(strToSentence());
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect((await h.state.get<{ value: string }>(Sentence.pointer('x'))).spec.value).toBe(
      '3 sentence',
    );
  });

  // Ported from cosi-project/runtime pkg/controller/runtime/internal/qruntime/qruntime.go NewAdapter (invalid concurrency)
  it('refuses a queue controller with a concurrency of 0 instead of running it with 1', async () => {
    h = createHarness();
    const pollers = (concurrency: number): QController => ({
      name: `Pollers${concurrency}`,
      settings: {
        inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'primary' }],
        outputs: [],
        concurrency,
      },
      reconcile: async () => undefined,
      mapInput: async () => [],
    });
    await expect(h.runtime.register(pollers(0))).rejects.toThrow(/invalid concurrency 0/);
    await expect(h.runtime.register(pollers(-1), pollers(1.5))).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof RegistrationError &&
        error.problems.length === 2 &&
        error.problems.every((p) => p.includes('invalid concurrency')),
    );
    expect(h.runtime.controllerNames()).toEqual([]);
    await h.runtime.register(pollers(2));
    expect(h.runtime.controllerNames()).toEqual(['Pollers2']);
  });

  it('refuses backoff settings that are not numbers, which would turn the simulated clock into NaN', async () => {
    h = createHarness();
    const retrying = (name: string, backoff: Record<string, number>): QController => ({
      name,
      settings: {
        inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'primary' }],
        outputs: [],
        backoff,
      },
      reconcile: async () => undefined,
      mapInput: async () => [],
    });
    await expect(
      h.runtime.register(
        retrying('A', { initial: Number.NaN }),
        retrying('B', { multiplier: Number.NaN, max: Number.NaN }),
      ),
    ).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof RegistrationError &&
        error.problems.length === 2 &&
        error.problems[0] ===
          'controller "A": backoff: initial must be a finite number of ms, 0 or more, got NaN' &&
        error.problems[1]!.includes('multiplier must be') &&
        error.problems[1]!.includes('max must be'),
    );
    expect(h.runtime.controllerNames()).toEqual([]);
    expect(() => createRuntime(h.state, { backoff: { initial: Number.NaN } })).toThrow(
      /backoff: initial must be a finite number/,
    );
    await h.runtime.register(retrying('C', { initial: 0, multiplier: 1, max: 10 }));
    expect(h.runtime.controllerNames()).toEqual(['C']);
  });

  it('says that register takes its controllers as arguments when given an array', async () => {
    h = createHarness();
    const asList = [intToStr(), strToSentence()] as unknown as Controller;
    await expect(h.runtime.register(asList)).rejects.toThrow(
      'a list of controllers was given as one controller: register takes them as arguments, register(...controllers)',
    );
    expect(h.runtime.controllerNames()).toEqual([]);
  });

  it('names what a controller given from plain JavaScript lacks, instead of failing inside', async () => {
    h = createHarness();
    const misshapen = [
      [null, 'expected a controller (an object), got null'],
      [
        { name: 'NoRun', inputs: [], outputs: [] },
        'controller "NoRun" has neither run (a controller) nor reconcile',
      ],
      [
        { name: 'NoInputs', outputs: [], run: async () => {} },
        'controller "NoInputs" has inputs that is not a list',
      ],
      [
        { name: 'Q', reconcile: async () => {} },
        'controller "Q" is a queue controller (it has reconcile) without settings',
      ],
      [
        { name: 'Q2', reconcile: async () => {}, settings: { inputs: [] } },
        'controller "Q2" has settings.outputs that is not a list',
      ],
    ] as const;
    for (const [controller, message] of misshapen) {
      const error = await h.runtime
        .register(controller as unknown as Controller)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RegistrationError);
      expect((error as Error).message).toContain(message);
    }
    expect(h.runtime.controllerNames()).toEqual([]);
  });

  it('exports the dependency graph as sorted data', async () => {
    h = createHarness();
    await h.runtime.register(strToSentence(), intToStr());
    expect(h.runtime.dependencyGraph()).toEqual({
      controllers: [
        { name: 'IntToStrController', kind: 'controller' },
        { name: 'StrToSentenceController', kind: 'controller' },
      ],
      types: [Int.type, Sentence.type, Str.type],
      edges: [
        { controller: 'IntToStrController', namespace: 'ints', type: Int.type, kind: 'strong' },
        { controller: 'IntToStrController', type: Str.type, kind: 'exclusive' },
        {
          controller: 'IntToStrController',
          namespace: 'strs',
          type: Str.type,
          kind: 'destroyReady',
        },
        { controller: 'StrToSentenceController', type: Sentence.type, kind: 'exclusive' },
        { controller: 'StrToSentenceController', namespace: 'strs', type: Str.type, kind: 'weak' },
      ],
    });
  });
});
