// Preloaded (`node --import`) into the processes the apply benchmark runs: reports their peak
// resident set and their CPU time on stderr when they exit.
import process from 'node:process';

process.on('exit', () => {
  const usage = process.resourceUsage();
  // CPU time (user + system, µs) reads the work done, whatever else the machine runs meanwhile.
  process.stderr.write(
    `\nCOSI_BENCH_MAX_RSS ${usage.maxRSS}\nCOSI_BENCH_CPU_US ${usage.userCPUTime + usage.systemCPUTime}\n`,
  );
});
