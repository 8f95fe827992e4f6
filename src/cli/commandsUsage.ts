import { CHECK_USAGE } from "./args";
import { CP_LAYOUT_COMMAND, CP_LAYOUT_USAGE } from "./cpLayoutArgs";
import { DUMP_COMMAND, DUMP_USAGE } from "./dumpArgs";

/**
 * What `scanlab`, `scanlab --help` and `scanlab help` print: every command with one line, and the
 * way to each one's own help. Each command's usage is long (check's alone is 40 lines), so the list
 * stays short enough to read at a glance and a command's details are one word away.
 */
export const COMMANDS_USAGE = `Usage: scanlab COMMAND [options]

Commands:
  check FILE       run every case of a golden case file and hold each element to its error bound
  cp-layout        show how slime's context parallelism splits one sample over its ranks
  dump FILE        check one of slime's debug dumps (train_data/{id}.pt) stage by stage, settings read
                   off it, against the float64 reference; name the known bug a failing one matches;
                   dump DIR (or FILE...): every step of a run directory, a line per step
  help [COMMAND]   this list, or one command's help

A command's options and exit status: scanlab COMMAND --help (or scanlab help COMMAND),
e.g. scanlab dump --help.

Options:
  -h, --help       show this list
  -v, --version    show the version

Docs: docs/cli.md (check, cp-layout), docs/dumps.md (dump).`;

/** Each command's own usage, by the word that names it. */
export const COMMAND_USAGES: Record<string, string> = {
  check: CHECK_USAGE,
  [CP_LAYOUT_COMMAND]: CP_LAYOUT_USAGE,
  [DUMP_COMMAND]: DUMP_USAGE,
  help: COMMANDS_USAGE,
};

/** The usage to print with a usage error: the command's own when the line names one, else the list. */
export function usageFor(argv: string[]): string {
  const command = argv.find((a) => !a.startsWith("-"));
  return (command !== undefined && usageOf(command)) || COMMANDS_USAGE;
}

/** A command's usage; undefined for any other word ("constructor" included: own keys only). */
export function usageOf(command: string): string | undefined {
  return Object.hasOwn(COMMAND_USAGES, command) ? COMMAND_USAGES[command] : undefined;
}
