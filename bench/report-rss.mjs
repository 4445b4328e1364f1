// Preloaded (`node --import`) into the processes the apply benchmark runs: reports their peak
// resident set on stderr when they exit.
import process from 'node:process';

process.on('exit', () => {
  process.stderr.write(`\nCOSI_BENCH_MAX_RSS ${process.resourceUsage().maxRSS}\n`);
});
