/**
 * Small controllers for the runtime tests, after COSI's runtime conformance suite:
 * ints become strings, strings become sentences.
 */
import {
  defineResource,
  listAll,
  type Controller,
  type ControllerRuntime,
} from '../../../src/index.js';

export const Int = defineResource<{ value: number }>({
  type: 'Ints.test.cosi.dev',
  defaultNamespace: 'ints',
  defaultSpec: () => ({ value: 0 }),
});
export const Str = defineResource<{ value: string }>({
  type: 'Strs.test.cosi.dev',
  defaultNamespace: 'strs',
  defaultSpec: () => ({ value: '' }),
});
export const Sentence = defineResource<{ value: string }>({
  type: 'Sentences.test.cosi.dev',
  defaultNamespace: 'sentences',
  defaultSpec: () => ({ value: '' }),
});

/**
 * Int -> Str with a finalizer on the int (strong input) and a destroyReady input on its own
 * outputs: tearing an int down tears its string down, destroys it once nobody holds it, then
 * releases the int.
 */
export function intToStr(name = 'IntToStrController'): Controller {
  return {
    name,
    inputs: [
      { namespace: Int.namespace, type: Int.type, kind: 'strong' },
      { namespace: Str.namespace, type: Str.type, kind: 'destroyReady' },
    ],
    outputs: [{ type: Str.type, kind: 'exclusive' }],
    async run(rt: ControllerRuntime) {
      for await (const _ of rt.events()) {
        const ints = await listAll(rt, Int);
        const wanted = new Set<string>();
        for (const int of ints) {
          const id = int.metadata.id;
          if (int.metadata.phase === 'running') {
            wanted.add(id);
            if (!int.metadata.finalizers.includes(name)) await rt.addFinalizer(int.metadata, name);
            await rt.modify(Str.create(id), (draft) => {
              draft.spec.value = String(int.spec.value);
            });
            continue;
          }
          const str = await rt.find(Str.pointer(id));
          if (!str) {
            if (int.metadata.finalizers.includes(name))
              await rt.removeFinalizer(int.metadata, name);
            continue;
          }
          const ready = await rt.teardown(str.metadata);
          if (ready) {
            await rt.destroy(str.metadata);
            await rt.removeFinalizer(int.metadata, name);
          }
        }
        for (const str of await listAll(rt, Str)) {
          if (wanted.has(str.metadata.id) || str.metadata.owner !== name) continue;
          if (ints.find((i) => i.metadata.id === str.metadata.id)) continue;
          if (await rt.teardown(str.metadata)) await rt.destroy(str.metadata);
        }
        rt.resetRestartBackoff();
      }
    },
  };
}

/** Str -> Sentence, a weak input: no finalizers. */
export function strToSentence(name = 'StrToSentenceController'): Controller {
  return {
    name,
    inputs: [{ namespace: Str.namespace, type: Str.type, kind: 'weak' }],
    outputs: [{ type: Sentence.type, kind: 'exclusive' }],
    async run(rt) {
      for await (const _ of rt.events()) {
        const strs = await listAll(rt, Str);
        const ids = new Set(strs.ids());
        for (const str of strs) {
          if (str.metadata.phase !== 'running') continue;
          await rt.modify(Sentence.create(str.metadata.id), (draft) => {
            draft.spec.value = `${str.spec.value} sentence`;
          });
        }
        for (const sentence of await listAll(rt, Sentence)) {
          const id = sentence.metadata.id;
          const str = strs.find((s) => s.metadata.id === id);
          if (ids.has(id) && str?.metadata.phase === 'running') continue;
          await rt.destroy(sentence.metadata);
        }
        rt.resetRestartBackoff();
      }
    },
  };
}

export { createHarness, type Harness } from '../../support/harness.js';
