import { describe, expect, it } from 'vitest';
import { ownerConflict, ReconcileCycleError } from '../../../src/engine/errors.js';
import { isOwnerConflictRecord, toErrorRecord } from '../../../src/engine/runtime/error-record.js';
import { annotate } from '../../../src/controllers/errors.js';

const web = { namespace: 'default', type: 'NetworkConfigs.example.org', id: 'web-1' };

describe('toErrorRecord', () => {
  it('keeps a conflict as its code, reason and pointer, not only its message', () => {
    const record = toErrorRecord(ownerConflict(web, 'Ctrl', ''));
    expect(record).toMatchObject({ code: 'conflict', reason: 'owner', pointer: web });
    expect(isOwnerConflictRecord(record)).toBe(true);
  });

  it('finds the code of an error that a wrapper annotated, and keeps the wrapper message', () => {
    const record = toErrorRecord(annotate('transform of', web, ownerConflict(web, 'Ctrl', '')));
    expect(record).toMatchObject({ code: 'conflict', reason: 'owner', pointer: web });
    expect(record.message).toMatch(/^transform of /);
  });

  it('names a plain throw `error`, with no reason or pointer', () => {
    expect(toErrorRecord(new Error('boom'))).toEqual({ code: 'error', message: 'boom' });
  });

  it('asks the locator for the place, with the whole error (its collected errors included)', () => {
    const thrown = new Error('no bridge');
    const cycle = new ReconcileCycleError('VMNetController', [
      annotate('transform of', web, thrown),
    ]);
    const seen: Error[] = [];
    const record = toErrorRecord(cycle, (error) => {
      seen.push(error);
      return { file: 'cosi.config.ts', line: 18, col: 15 };
    });
    expect(seen).toEqual([cycle]);
    expect(record).toMatchObject({
      code: 'reconcile-cycle',
      location: { file: 'cosi.config.ts', line: 18, col: 15 },
    });
  });
});
