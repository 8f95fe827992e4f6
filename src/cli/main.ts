import {
  type CaseSolver,
  type CaseVerdict,
  caseConsistencyProblems,
  checkCases,
  coreSolver,
  DUMP_CASE_JUDGE,
  MODE_EXPECTATION,
  nothingToCheck,
  type PowTablesUse,
  powTablesUse,
  summaryLine,
} from "../conformance";
import type { ScanAlgorithm } from "../core";
import { CaseFileError, MAX_CASE_FILE_BYTES, parseCaseFile, tooLargeError } from "../io/caseFile";
import { printable, printableLines } from "../io/printable";
import type { ByteSource } from "../io/tensorFiles/byteSource";
import { STRATEGY_ALGORITHM } from "../names/strategies";
import { type CheckArgs, parseCliArgs, UsageError } from "./args";
import { COMMANDS_USAGE, usageFor, usageOf } from "./commandsUsage";
import { runCpLayout } from "./cpLayoutReport";
import { type DirEntry, DumpFileError, runDump } from "./dumpCommand";
import { runDumpRun } from "./dumpRun";
import { listDirectory, openFileSource } from "./fileSource";
import { jsonText } from "./jsonText";
import { InputTooLargeError, readBounded, readFileBounded } from "./readInput";
import { formatTable } from "./table";

/** Where the command reads and writes, so tests can run it in-process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The bytes of a file or of standard input; an InputTooLargeError past MAX_CASE_FILE_BYTES. */
  readFile(path: string): Promise<Uint8Array>;
  readStdin(): Promise<Uint8Array>;
  /** Resolves once what was written has left (a pipe buffers every write it cannot pass on at once). */
  drained?(): Promise<void>;
  /** A file opened for positioned reads (scanlab dump): nothing is read until a reader asks. */
  openFile(path: string, name: string): ByteSource & { close(): void };
  /** Writes a text file (scanlab dump --export-cases). */
  writeFile(path: string, text: string): Promise<void>;
  /** A directory's entries, null when the path is no directory (scanlab dump DIR). */
  listDir(path: string): DirEntry[] | null;
}

export const nodeIO: CliIO = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  readFile: (path) => readFileBounded(path, MAX_CASE_FILE_BYTES),
  readStdin: () => readBounded(process.stdin, MAX_CASE_FILE_BYTES),
  drained: () =>
    process.stdout.writableNeedDrain
      ? new Promise((resolve) => process.stdout.once("drain", resolve))
      : Promise.resolve(),
  openFile: openFileSource,
  listDir: listDirectory,
  writeFile: async (path, text) => {
    const { writeFile } = await import("node:fs/promises");
    await writeFile(path, text);
  },
};

const VERSION = "0.1.0";

/**
 * Runs `scanlab` with the arguments after the program name; resolves to the exit status and never
 * rejects: whatever goes wrong ends as one line on standard error and status 2, never a stack trace.
 */
export async function main(argv: string[], io: CliIO = nodeIO): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      // A command's own usage (the list when none is named): every usage at once would bury the line that matters.
      io.stderr(`scanlab: ${printable(error.message)}\n\n${usageFor(argv)}`);
    } else if (error instanceof CaseFileError || error instanceof EngineStartError || error instanceof DumpFileError) {
      // Parts taken from the file are escaped where the message is built; this keeps its lines.
      io.stderr(`scanlab: ${printableLines(error.message)}`);
    } else {
      // A bug, not bad input: say so plainly, with the error's own words, so it gets reported.
      const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      io.stderr(`scanlab: internal error (a bug in scanlab, please report it): ${printable(what)}`);
    }
    return 2;
  }
}

async function run(argv: string[], io: CliIO): Promise<number> {
  const args = parseCliArgs(argv);
  if (args.command === "missing") {
    io.stderr(`scanlab: missing command\n\n${COMMANDS_USAGE}`);
    return 2;
  }
  if (args.command === "help-topic") {
    const usage = args.topic === null ? COMMANDS_USAGE : usageOf(args.topic);
    if (usage === undefined)
      throw new UsageError(
        `help: unknown command ${JSON.stringify(args.topic)}; the commands are check, cp-layout, dump`,
      );
    io.stdout(usage);
    return 0;
  }
  if (args.command === "help") {
    io.stdout(args.usage ?? COMMANDS_USAGE);
    return 0;
  }
  if (args.command === "version") {
    io.stdout(`scanlab ${VERSION}`);
    return 0;
  }
  if (args.command === "cp-layout") return runCpLayout(args, io.stdout);
  if (args.command === "dump") {
    const dumpIo = { ...io, json: jsonText };
    // One file keeps the single-dump report; a directory or several paths are a run, step by step.
    const run = args.paths.length > 1 || (args.file !== "-" && io.listDir(args.file) !== null);
    return run ? runDumpRun(args, dumpIo) : runDump(args, dumpIo);
  }
  return check(args, io);
}

async function check(args: CheckArgs, io: CliIO): Promise<number> {
  const source = args.file === "-" ? "standard input" : args.file;
  let bytes: Uint8Array;
  try {
    bytes = args.file === "-" ? await io.readStdin() : await io.readFile(args.file);
  } catch (error) {
    if (error instanceof InputTooLargeError) throw tooLargeError(source, error.size);
    throw new CaseFileError(`cannot read ${printable(source)}: ${printable((error as Error).message)}`);
  }
  const file = parseCaseFile(bytes, source);
  const nothing = nothingToCheck(file.cases, printable(source));
  if (nothing) throw new CaseFileError(nothing);
  const inconsistent = caseConsistencyProblems(file.cases);
  if (inconsistent.length > 0) {
    const shown = inconsistent.slice(0, 10).map((p) => `  ${printable(p)}`);
    if (inconsistent.length > 10) shown.push(`  … and ${inconsistent.length - 10} more problems`);
    throw new CaseFileError(`${printable(source)}: the file contradicts itself\n${shown.join("\n")}`);
  }
  const solver = await solverFor(args);
  const expectation = args.engine === "tfjs" ? "float32" : MODE_EXPECTATION[args.mode];
  const verdicts = await checkCases(file.cases, solver, expectation, undefined, algorithmOf(args));
  const tables = args.engine === "core" && args.mode === "slime-exact" ? powTablesUse(file.cases) : undefined;
  io.stdout(args.json ? jsonText(jsonReport(args, verdicts, tables)) : report(args, source, verdicts, tables));
  return verdicts.every((v) => v.passed) ? 0 : 1;
}

/** The rounding path the error bound assumes, the engine strategy's own (STRATEGY_ALGORITHM). */
function algorithmOf(args: CheckArgs): ScanAlgorithm {
  if (args.engine !== "tfjs") return "chunked";
  return STRATEGY_ALGORITHM[args.strategy];
}

async function solverFor(args: CheckArgs): Promise<CaseSolver> {
  if (args.engine === "core") return coreSolver(args.mode === "float32" ? "float32" : args.mode);
  // Loaded only when asked for: tfjs takes a moment to start and the core modes never need it.
  const { tfjsCpuSolver } = await import("./tfjsSolver");
  try {
    return await tfjsCpuSolver(args.strategy);
  } catch (error) {
    throw new EngineStartError(`the tfjs engine could not start: ${printable((error as Error).message)}`);
  }
}

class EngineStartError extends Error {}

function engineLabel(args: CheckArgs): string {
  return args.engine === "tfjs" ? `tfjs engine (cpu backend), ${args.strategy} strategy` : `core, mode ${args.mode}`;
}

/**
 * slime-exact names the power tables it replayed: a case's own, or, where the file has none,
 * core's emulation of torch's CPU powers, which is slime's bits only on the platform it emulates.
 */
function tablesLine(tables: PowTablesUse): string {
  const n = (k: number) => (k === 1 ? "1 case" : `${k} cases`);
  if (tables.emulated === 0) return `power tables: the file's float32_pow_tables (${n(tables.fromFile)})`;
  const emulated = `${tables.emulation} for ${n(tables.emulated)} without float32_pow_tables`;
  return tables.fromFile === 0
    ? `power tables: ${emulated}`
    : `power tables: the file's float32_pow_tables (${n(tables.fromFile)}); ${emulated}`;
}

/**
 * A slime_dump case runs no solver: the engine and mode named in the header do not apply to it,
 * and the report says so rather than let its verdict pass for the mode's.
 */
function dumpCasesLine(verdicts: CaseVerdict[]): string | null {
  const n = verdicts.filter((v) => v.kind === "slime_dump").length;
  if (n === 0) return null;
  return `slime_dump ${n === 1 ? "case" : `cases (${n})`}: ${DUMP_CASE_JUDGE}`;
}

function report(args: CheckArgs, source: string, verdicts: CaseVerdict[], tables?: PowTablesUse): string {
  const cases = verdicts.length === 1 ? "1 case" : `${verdicts.length} cases`;
  const dumps = dumpCasesLine(verdicts);
  return [
    `${printable(source)}: ${cases}, ${engineLabel(args)}`,
    // No scan replayed any table (a file of conventions and dumps): nothing to name.
    ...(tables && tables.fromFile + tables.emulated > 0 ? [tablesLine(tables)] : []),
    ...(dumps ? [dumps] : []),
    "",
    formatTable(verdicts),
    "",
    summaryLine(verdicts),
  ].join("\n");
}

function jsonReport(args: CheckArgs, verdicts: CaseVerdict[], tables?: PowTablesUse) {
  const passed = verdicts.filter((v) => v.passed).length;
  return {
    file: args.file,
    engine: args.engine,
    mode: args.mode,
    ...(args.engine === "tfjs" ? { strategy: args.strategy } : {}),
    ...(tables
      ? { pow_tables: { from_file: tables.fromFile, emulated: tables.emulated, emulation: tables.emulation } }
      : {}),
    ...(verdicts.some((v) => v.kind === "slime_dump") ? { slime_dump_cases: DUMP_CASE_JUDGE } : {}),
    cases: verdicts,
    passed,
    failed: verdicts.length - passed,
    summary: summaryLine(verdicts),
  };
}

export { jsonText };
