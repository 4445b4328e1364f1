import * as path from 'node:path';
import type { Command } from 'commander';
import type { RunRecord } from '../engine/record/run-record.js';
import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';

/** `--trace FILE`, as `apply`, `get`, `explain`, `graph`, `check`, `report` and `watch` take it. */
export interface TraceFlags {
  trace?: string;
}

/** Adds `--trace <file>`. */
export function addTraceOption(command: Command): Command {
  return command.option(
    '--trace <file>',
    'record every reconcile and write a Chrome trace (open in ui.perfetto.dev or chrome://tracing); with --stable, logical times',
  );
}

/**
 * Writes the record as a Chrome Trace Event file at `file` (relative to `cwd`), atomically; a file
 * that cannot be written is a usage error naming it.
 */
export async function writeTraceFile(
  file: string,
  record: RunRecord,
  options: {
    readonly cwd: string;
    readonly stable?: boolean;
    /** The project's types, so that a Kubernetes object's fields are named as its document's. */
    readonly registry?: DefinitionRegistry;
  },
): Promise<void> {
  const [{ toChromeTrace }, { writeOutputFile }] = await Promise.all([
    import('./render/trace/chrome-trace.js'),
    import('./output-file.js'),
  ]);
  const { registry } = options;
  const trace = toChromeTrace(record, {
    stable: options.stable === true,
    ...(registry
      ? { isKubernetesType: (type: string) => registry.get(type)?.kubernetes !== undefined }
      : {}),
  });
  await writeOutputFile(path.resolve(options.cwd, file), `${JSON.stringify(trace)}\n`, file);
}
