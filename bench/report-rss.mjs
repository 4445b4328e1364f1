// Preloaded (`node --import`) into the processes the apply benchmark runs: reports their peak
// resident set and their CPU time (user + system, every thread) on stderr when they exit.
import process from 'node:process';

process.on('exit', () => {
  const usage = process.resourceUsage();
  const cpu = usage.userCPUTime + usage.systemCPUTime;
  process.stderr.write(`\nCOSI_BENCH_MAX_RSS ${usage.maxRSS}\nCOSI_BENCH_CPU_US ${cpu}\n`);
});
