#!/usr/bin/env node
// The `scanlab` command runs the TypeScript sources directly through tsx, so it never
// disagrees with the code the tests and the page use, and needs no build step after `npm ci`.
import { register } from "tsx/esm/api";

register();
// A closed pipe (`scanlab check f | head`) or a full disk ends the command quietly, not with a trace.
process.stdout.on("error", (error) => {
  if (error.code !== "EPIPE") process.stderr.write(`scanlab: cannot write the report: ${error.message}\n`);
  process.exit(error.code === "EPIPE" ? (process.exitCode ?? 0) : 2);
});
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
