import { afterEach, describe, expect, it } from 'vitest';
import { createTransformController, defineResource } from '../../src/index.js';
import { runFindings } from '../../src/app/run-findings.js';
import { createHarness, type Harness } from '../support/harness.js';

const Database = defineResource<{ engine: string }>({
  type: 'Databases.shop.io',
  defaultSpec: () => ({ engine: 'postgres' }),
});
const Backup = defineResource<{ schedule: string }>({
  type: 'Backups.shop.io',
  defaultSpec: () => ({ schedule: '' }),
});

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

describe('the finding of a controller that kept failing', () => {
  it('names the controller once: not again as its error starts', async () => {
    h = createHarness();
    await h.runtime.register(
      createTransformController({
        name: 'BackupController',
        input: Database,
        output: Backup,
        mapMetadata: (db) => Backup.create(db.metadata.id),
        transform: (_ctx, db) => {
          if (db.spec.engine === 'mysql') throw new Error('mysql backups are not supported');
        },
      }),
    );
    await h.state.create(Database.create('users', { engine: 'mysql' }));
    const report = await h.runtime.converge({ maxAttempts: 2 });
    const { controllers } = runFindings(report, { placeOf: () => undefined, config: 'c.ts' });
    expect(controllers[0]?.findings.map((f) => [f.code, f.message])).toEqual([
      [
        'controller-failed',
        'BackupController kept failing: transform of Databases.shop.io(default/users): mysql backups are not supported',
      ],
    ]);
  });
});
