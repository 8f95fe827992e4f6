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
import { CaseFileError, parseCaseFile, tooLargeError } from "../io/caseFile";
import { printable } from "../io/printable";
import { STRATEGY_ALGORITHM } from "../names/strategies";
import type { CheckArgs } from "./args";
import { EngineStartError } from "./engineStartError";
import { jsonText } from "./jsonText";
import type { CliIO } from "./main";
import { InputTooLargeError } from "./readInput";
import { formatTable } from "./table";

/** `scanlab check FILE`: every case of a case file replayed by the engine and mode asked for. */
export async function check(args: CheckArgs, io: CliIO): Promise<number> {
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
