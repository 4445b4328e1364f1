/**
 * A controller defined in the test file itself, in a config object: vitest ran the file from its
 * transform's output, whose lines are not the file's, so the place V8 recorded pointed at another
 * line (`(at test.ts:20:32)` for a throw on line 10); the place is now the one vitest's own
 * source map gives, as vitest shows the test's frames.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { controllerManagedBy, defineConfig, defineResource, findById } from '../../src/index.js';
import { createTestProject } from '../../src/testing/index.js';

/**
 * Types that the transform drops, and so lines of the output that move.
 */
interface JobSpec {
  readonly mode: string;
  readonly retries?: number;
}
type Status = { readonly visits: number };

const Job = defineResource<JobSpec>({ type: 'Jobs.place.test' });
const JobStatus = defineResource<Status>({
  type: 'JobStatuses.place.test',
  defaultSpec: (): Status => ({ visits: 0 }),
});
const config = defineConfig({
  definitions: [Job, JobStatus],
  setup: (runtime) =>
    controllerManagedBy(runtime)
      .named('place.JobController')
      .for(Job)
      .owns(JobStatus)
      .complete(async ({ client }, request) => {
        const job = await findById(client, Job, request.id);
        const timeout = (job as unknown as { spec: { timeout?: { seconds: number } } }).spec
          .timeout;
        await client.modify(JobStatus.create(request.id), (status) => {
          status.spec = { visits: timeout!.seconds };
        });
      }),
});

it("places an error of a controller defined in the test file at the file's own line", async () => {
  const lines = readFileSync(import.meta.filename, 'utf8').split('\n');
  const line = lines.findIndex((text) => text.includes('timeout!.seconds')) + 1;
  const col = (lines[line - 1] ?? '').indexOf('seconds') + 1;
  const project = await createTestProject({
    config,
    manifests: 'metadata: { type: Jobs.place.test, id: a }\nspec: { mode: x }\n',
  });
  try {
    const report = await project.converge();
    const failed = report.controllers.find((c) => c.name === 'place.JobController');
    expect(failed?.lastError?.message).toContain("reading 'seconds'");
    expect(failed?.lastError?.location).toMatchObject({ line, col });
    expect(failed?.lastError?.location?.file).toMatch(/thrown-place-object\.test\.ts$/);
  } finally {
    await project.close();
  }
});
