import { CORE_MODES, type CoreMode } from "../conformance";
import { runsOn, STRATEGIES, type Strategy, strategiesFor } from "../names/strategies";
import { type CpLayoutArgs, isCpLayout, parseCpLayoutArgs } from "./cpLayoutArgs";
import { type DumpArgs, isDump, parseDumpArgs } from "./dumpArgs";
import { parseOptions, UsageError } from "./parseOptions";

export { UsageError };

export const ENGINES = ["core", "tfjs"] as const;
export type Engine = (typeof ENGINES)[number];

/** `scanlab check --help`; the list of every command is COMMANDS_USAGE (commandsUsage.ts). */
export const CHECK_USAGE = `Usage: scanlab check FILE [options]

Runs every case of a golden case file (schema: cases/SCHEMA.md; kinds discounted,
gae, reinforce_pp and convention) and compares the results with the float64 truth
(or with slime's own float32 output), each element within its own error bound.
FILE may be - to read standard input.

Options:
  --mode float64|float32|slime-exact
                    core implementation to check (default float64):
                    float64      slime's chunked algorithm in float64, within the float64 bound
                    float32      the same in float32, within the float32 bound
                    slime-exact  float32 replay with the case's float32_pow_tables
                                 (without them: torch's CPU float32 powers, emulated as
                                 Debian's torch 1.13 computes them on AVX2, 1 thread),
                                 bit-identical to chunked_float32 (library-convention
                                 cases have no such reference: held to the float32 bound)
  --engine core|tfjs
                    core = pure TypeScript (default); tfjs = the TensorFlow.js engine
                    on its cpu backend (float32, checked within the float32 bound);
                    it runs every kind, library-convention cases included
  --strategy chunked|two-level|per-token
                    tfjs strategy (default chunked)
  --json            print one JSON object instead of the table
  -h, --help        show this help
  -v, --version     show the version
Each option may be given once.

Limits: a case file (or standard input) of at most 256 MiB, in UTF-8, with no
field the schema does not know; per case at most 65,536 rows, 2^24 tokens per
row, 2^27 elements (rows x longest row) and 2^32 multiply-adds in the local
scans (rows x padded length x min(chunk_size, T)).

Columns (docs/verdicts.md): "max abs error" is the largest |computed - expected|;
"tolerance there" is what that same element is held to, min(its error bound, the
file's tolerance), so a pass always has max abs error <= tolerance there; "worst
err/tol" is the largest error as a fraction of its own element's tolerance (a
pass is at most 1) and "at" that element. --json: maxAbsError, maxErrorElement,
toleranceAtMaxError (also as tolerance), worst {element, error, tolerance,
fraction}, boundFraction (= worst.fraction), compared, passed, detail.

Exit status: 0 when every case passes, 1 when any fails, 2 for a usage error, an
unreadable, invalid or empty file (no cases, or nothing to compare), or an
internal error.`;

export interface CheckArgs {
  command: "check";
  file: string;
  mode: CoreMode | "float32";
  engine: Engine;
  strategy: Strategy;
  json: boolean;
}

/**
 * `help`: print `usage` (null: the list of every command) on standard output and exit 0.
 * `missing`: no command at all; the list goes to standard error with exit status 2, as any usage error.
 */
export type HelpArgs = { command: "help"; usage: string | null } | { command: "missing" };

export type Args = CheckArgs | CpLayoutArgs | DumpArgs | HelpArgs | { command: "version" };

/** `scanlab help [COMMAND]`: the list, or one command's usage (the words are checked in main, against COMMAND_USAGES). */
export interface HelpTopic {
  command: "help-topic";
  topic: string | null;
}

export function parseCliArgs(argv: string[]): Args | HelpTopic {
  if (argv.length === 0) return { command: "missing" };
  if (argv.find((a) => !a.startsWith("-")) === "help") {
    const [, topic, ...rest] = argv.filter((a) => !a.startsWith("-"));
    if (rest.length > 0) throw new UsageError(`unexpected argument: ${rest[0]}`);
    return { command: "help-topic", topic: topic ?? null };
  }
  if (isCpLayout(argv)) {
    const cp = parseCpLayoutArgs(argv);
    if (!cp.ok) throw new UsageError(cp.message);
    return cp.args;
  }
  if (isDump(argv)) return parseDumpArgs(argv);
  const { values, positionals } = parseOptions(argv, {
    mode: { type: "string" },
    engine: { type: "string" },
    strategy: { type: "string" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
    version: { type: "boolean", short: "v" },
  });
  const [command, file, ...rest] = positionals;
  // Bare --help lists the commands; check --help is check's own.
  if (values.help) return { command: "help", usage: command === "check" ? CHECK_USAGE : null };
  if (values.version) return { command: "version" };
  if (command !== "check") {
    throw new UsageError(
      command === undefined ? "missing command: check, cp-layout or dump" : `unknown command: ${command}`,
    );
  }
  if (file === undefined) throw new UsageError("check needs a case file (or - for standard input)");
  if (rest.length > 0) throw new UsageError(`unexpected argument: ${rest[0]}`);

  const engine = oneOf(values.engine ?? "core", ENGINES, "--engine");
  // The command's engine is tfjs's cpu backend: a webgpu-only strategy is a usage error, not a failure per case.
  if (
    values.strategy !== undefined &&
    !runsOn(values.strategy as Strategy, "cpu") &&
    STRATEGIES.includes(values.strategy as Strategy)
  ) {
    throw new UsageError(
      `--strategy ${values.strategy} runs only in the browser, on webgpu; the command's engine is tfjs's cpu backend`,
    );
  }
  const strategy = oneOf(values.strategy ?? "chunked", strategiesFor("cpu"), "--strategy");
  if (engine === "core" && values.strategy !== undefined) {
    throw new UsageError("--strategy applies to --engine tfjs only");
  }
  const mode = oneOf(values.mode ?? (engine === "tfjs" ? "float32" : "float64"), CORE_MODES, "--mode");
  if (engine === "tfjs" && mode !== "float32") {
    throw new UsageError("--engine tfjs computes in float32: --mode must be float32");
  }
  return { command: "check", file, mode, engine, strategy, json: values.json ?? false };
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(", ")}; got ${JSON.stringify(value)}`);
}
