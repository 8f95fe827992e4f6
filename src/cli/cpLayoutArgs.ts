import { MAX_CP_SIZE, MAX_TOTAL_LENGTH } from "../core";
import { parseOptions, UsageError } from "./parseOptions";

export const CP_LAYOUT_COMMAND = "cp-layout";

export const CP_LAYOUT_USAGE = `Usage: scanlab cp-layout --total-length T --response-length R --cp-size N [--json]

Shows how slime's context parallelism (Megatron's zigzag split) cuts one sample of
T tokens (a prompt of T - R tokens, then a response of R) over N ranks: each rank's
two chunks, the response logits they hold (logit j predicts token j + 1) and the
response indices in the rank's local order, and whether slime's PPO path, which adds
the outcome reward to the last element of rank 0's local vector, puts it on the
last response token.

Options:
  --total-length T     prompt plus response, 2 to ${MAX_TOTAL_LENGTH}
  --response-length R  1 to T - 1 (response token 0 is predicted by the prompt's
                       last logit, so there is at least one prompt token)
  --cp-size N          context-parallel ranks, 1 to ${MAX_CP_SIZE}
  --json               one JSON object: {"ranks": [{"rank": 0, "response_indices":
                       [...], "chunks": [...]}, ...], "ppo_reward_placement": {...}}
Each option may be given once.

Exit status: 0 when the layout is printed (a misplaced PPO reward is reported, not
an error), 2 for a usage error.`;

export interface CpLayoutArgs {
  command: "cp-layout";
  totalLength: number;
  responseLength: number;
  cpSize: number;
  json: boolean;
}

/**
 * Whether the command line asks for cp-layout: its first word that is not an option (check's
 * command line never has "cp-layout" there unless an option's value is that word, and no check
 * option takes it).
 */
export function isCpLayout(argv: string[]): boolean {
  return argv.find((a) => !a.startsWith("-")) === CP_LAYOUT_COMMAND;
}

/** A usage error, as text: args.ts throws it again as a UsageError (printed with the usage, status 2). */
export type CpLayoutParse =
  | { ok: true; args: CpLayoutArgs | { command: "help"; usage: string } }
  | { ok: false; message: string };

export function parseCpLayoutArgs(argv: string[]): CpLayoutParse {
  try {
    return { ok: true, args: parseOrThrow(argv) };
  } catch (error) {
    if (error instanceof UsageError) return { ok: false, message: error.message };
    throw error;
  }
}

function parseOrThrow(argv: string[]): CpLayoutArgs | { command: "help"; usage: string } {
  const { values, positionals } = parseOptions(argv, {
    "total-length": { type: "string" },
    "response-length": { type: "string" },
    "cp-size": { type: "string" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) return { command: "help", usage: CP_LAYOUT_USAGE };
  const extra = positionals.slice(1);
  if (extra.length > 0) throw new UsageError(`unexpected argument: ${extra[0]}`);
  const whole = (flag: string, text: string | undefined, min: number, max: number): number => {
    if (text === undefined) throw new UsageError(`cp-layout needs ${flag}`);
    // Digits only: "1e3", "0x10" or "12.0" are refused rather than read as something else.
    const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
    if (!(value >= min && value <= max)) {
      throw new UsageError(`${flag} must be a whole number from ${min} to ${max}; got ${JSON.stringify(text)}`);
    }
    return value;
  };
  const totalLength = whole("--total-length", values["total-length"], 2, MAX_TOTAL_LENGTH);
  const responseLength = whole("--response-length", values["response-length"], 1, MAX_TOTAL_LENGTH);
  const cpSize = whole("--cp-size", values["cp-size"], 1, MAX_CP_SIZE);
  if (responseLength > totalLength - 1) {
    throw new UsageError(
      `--response-length ${responseLength} leaves no prompt token in --total-length ${totalLength}; it must be at most ${totalLength - 1} (response token 0 is predicted by the prompt's last logit)`,
    );
  }
  return { command: "cp-layout", totalLength, responseLength, cpSize, json: values.json ?? false };
}
