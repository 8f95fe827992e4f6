#!/usr/bin/env node
// The `scanlab` command runs the TypeScript sources directly through tsx, so it never
// disagrees with the code the tests and the page use, and needs no build step after `npm ci`.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
