import { describe, expect, it } from 'vitest';
import {
  alreadyExists,
  hasCode,
  isConflict,
  isDestroyOutput,
  isNotFound,
  isOwnerConflict,
  isRequeue,
  isRetryableConflict,
  isSkip,
  isTerminal,
  NotFoundError,
  ownerConflict,
  requeueAfter,
  SkipError,
  terminalError,
} from '../../src/engine/errors.js';

const VM = { namespace: 'default', type: 'VMs.example.org', id: 'web-1' };

/** An error as another copy of the engine module would build it: same code, another class. */
function foreign(code: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(`foreign ${code}`), { code }, extra);
}

describe('the error vocabulary', () => {
  it('recognises an error by its code, whatever class built it', () => {
    expect(isNotFound(foreign('not-found'))).toBe(true);
    expect(isSkip(foreign('skip'))).toBe(true);
    expect(isTerminal(foreign('terminal'))).toBe(true);
    expect(isDestroyOutput(foreign('destroy-output'))).toBe(true);
    expect(isRequeue(foreign('requeue', { interval: 5 }))).toBe(true);
  });

  it('answers false for other codes, non-errors and look-alike plain objects', () => {
    expect(isNotFound(new SkipError())).toBe(false);
    expect(isSkip({ code: 'skip' })).toBe(false);
    expect(hasCode(undefined, 'skip')).toBe(false);
    expect(isRequeue(foreign('requeue'))).toBe(false);
  });

  it('finds a terminal error wrapped in causes or joined in an AggregateError, as errors.Is does', () => {
    const terminal = terminalError('bad spec');
    expect(
      isTerminal(new Error('outer', { cause: new Error('middle', { cause: terminal }) })),
    ).toBe(true);
    expect(isTerminal(new AggregateError([new Error('busy'), terminal]))).toBe(true);
    expect(isTerminal(new Error('outer', { cause: foreign('terminal') }))).toBe(true);
    expect(isTerminal(new Error('outer', { cause: new Error('plain') }))).toBe(false);
    // Not an Error: a look-alike cause is not looked into.
    expect(isTerminal(new Error('outer', { cause: { code: 'terminal' } }))).toBe(false);
  });

  it('ends on a cycle of causes and never runs a throwing getter', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    Object.assign(a, { cause: b });
    expect(isTerminal(a)).toBe(false);
    const hostile = new Error('hostile');
    Object.defineProperty(hostile, 'cause', {
      get() {
        throw new Error('getter ran');
      },
    });
    expect(isTerminal(hostile)).toBe(false);
  });

  it('tells conflicts apart by their reason', () => {
    const owner = ownerConflict(VM, 'me', 'you');
    expect(isConflict(owner) && isOwnerConflict(owner)).toBe(true);
    expect(isRetryableConflict(owner)).toBe(false);
    expect(isRetryableConflict(alreadyExists(VM))).toBe(true);
    expect(isOwnerConflict(new NotFoundError(VM))).toBe(false);
  });

  it('gives each constructor its stable code', () => {
    expect(requeueAfter(10)).toMatchObject({ code: 'requeue', interval: 10 });
    expect(terminalError('bad spec')).toMatchObject({
      code: 'terminal',
      message: 'terminal error: bad spec',
    });
    expect(new NotFoundError(VM).message).toBe(
      "resource VMs.example.org(default/web-1) doesn't exist",
    );
  });
});
