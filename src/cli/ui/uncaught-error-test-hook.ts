/**
 * A test hook, not a feature. With `COSI_TEST_UNCAUGHT_ON_SIGUSR2=1` in the process's
 * environment, the full-screen `cosi watch` throws an error on its main thread, where nothing
 * catches it, when the process gets SIGUSR2. A test in a real terminal uses it to see that an
 * uncaught error gives the terminal back (see `terminal-guard.ts`): no code of cosi's own is
 * meant to throw there, and the project's code runs in a worker thread, whose errors are
 * findings, so nothing else raises one on demand. Only the environment the process was started
 * with turns it on: manifests cannot, and a config runs in the worker, whose environment is a
 * copy.
 */
export function installUncaughtErrorTestHook(
  env: Readonly<Record<string, string | undefined>>,
): () => void {
  if (env.COSI_TEST_UNCAUGHT_ON_SIGUSR2 !== '1') return () => undefined;
  const onSignal = (): never => {
    throw new Error(
      'an uncaught error on the main thread (COSI_TEST_UNCAUGHT_ON_SIGUSR2, a test hook)',
    );
  };
  process.on('SIGUSR2', onSignal);
  return () => process.off('SIGUSR2', onSignal);
}
