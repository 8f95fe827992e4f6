// Loaded with `node --import` into the command a bench times: its peak resident set size, on standard error at exit.
process.on("exit", () => {
  process.stderr.write(`\nSCANLAB_BENCH_MAX_RSS_KB ${process.resourceUsage().maxRSS}\n`);
});
