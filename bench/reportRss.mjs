// Loaded with `node --import` into the command a bench times: its peak resident set size and its CPU time
// (user + system, every thread), on standard error at exit.
process.on("exit", () => {
  const usage = process.resourceUsage();
  process.stderr.write(
    `\nSCANLAB_BENCH_MAX_RSS_KB ${usage.maxRSS}\nSCANLAB_BENCH_CPU_US ${usage.userCPUTime + usage.systemCPUTime}\n`,
  );
});
