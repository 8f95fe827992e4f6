import { readFile } from "node:fs/promises";
import {
  type CaseSolver,
  type CaseVerdict,
  checkCases,
  coreSolver,
  MODE_EXPECTATION,
  summaryLine,
} from "../conformance";
import { CaseFileError, parseCaseFile } from "../io/caseFile";
import { type Args, type CheckArgs, parseCliArgs, USAGE, UsageError } from "./args";
import { formatTable } from "./table";

/** Where the command reads and writes, so tests can run it in-process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  readFile(path: string): Promise<string>;
  readStdin(): Promise<string>;
}

export const nodeIO: CliIO = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  readFile: (path) => readFile(path, "utf8"),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
};

const VERSION = "0.1.0";

/** Runs `scanlab` with the arguments after the program name; resolves to the exit status. */
export async function main(argv: string[], io: CliIO = nodeIO): Promise<number> {
  let args: Args;
  try {
    args = parseCliArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`scanlab: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (args.command === "help") {
    io.stdout(USAGE);
    return 0;
  }
  if (args.command === "version") {
    io.stdout(`scanlab ${VERSION}`);
    return 0;
  }
  try {
    return await check(args, io);
  } catch (error) {
    if (error instanceof CaseFileError || error instanceof EngineStartError) {
      io.stderr(`scanlab: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

async function check(args: CheckArgs, io: CliIO): Promise<number> {
  const source = args.file === "-" ? "standard input" : args.file;
  let text: string;
  try {
    text = args.file === "-" ? await io.readStdin() : await io.readFile(args.file);
  } catch (error) {
    throw new CaseFileError(`cannot read ${source}: ${(error as Error).message}`);
  }
  const file = parseCaseFile(text, source);
  const solver = await solverFor(args);
  const expectation = args.engine === "tfjs" ? "float32" : MODE_EXPECTATION[args.mode];
  const verdicts = await checkCases(file.cases, solver, expectation);
  io.stdout(
    args.json ? JSON.stringify(jsonReport(args, verdicts), nonFiniteAsText, 2) : report(args, source, verdicts),
  );
  return verdicts.every((v) => v.passed) ? 0 : 1;
}

async function solverFor(args: CheckArgs): Promise<CaseSolver> {
  if (args.engine === "core") return coreSolver(args.mode === "float32" ? "float32" : args.mode);
  // Loaded only when asked for: tfjs takes a moment to start and the core modes never need it.
  const { tfjsCpuSolver } = await import("./tfjsSolver");
  try {
    return await tfjsCpuSolver(args.strategy);
  } catch (error) {
    throw new EngineStartError(`the tfjs engine could not start: ${(error as Error).message}`);
  }
}

class EngineStartError extends Error {}

/** JSON has no Infinity or NaN: write them as text, so an overflow is not mistaken for "no value". */
function nonFiniteAsText(_key: string, value: unknown): unknown {
  return typeof value === "number" && !Number.isFinite(value) ? String(value) : value;
}

function engineLabel(args: CheckArgs): string {
  return args.engine === "tfjs" ? `tfjs engine (cpu backend), ${args.strategy} strategy` : `core, mode ${args.mode}`;
}

function report(args: CheckArgs, source: string, verdicts: CaseVerdict[]): string {
  return [
    `${source}: ${verdicts.length} cases, ${engineLabel(args)}`,
    "",
    formatTable(verdicts),
    "",
    summaryLine(verdicts),
  ].join("\n");
}

function jsonReport(args: CheckArgs, verdicts: CaseVerdict[]) {
  const passed = verdicts.filter((v) => v.passed).length;
  return {
    file: args.file,
    engine: args.engine,
    mode: args.mode,
    ...(args.engine === "tfjs" ? { strategy: args.strategy } : {}),
    cases: verdicts,
    passed,
    failed: verdicts.length - passed,
    summary: summaryLine(verdicts),
  };
}
