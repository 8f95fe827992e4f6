import { type ParseArgsConfig, parseArgs } from "node:util";

type OptionsConfig = NonNullable<ParseArgsConfig["options"]>;

/** A command line the CLI refuses: printed with the usage, exit status 2. */
export class UsageError extends Error {}

/**
 * node's parseArgs for one of the CLI's commands: positionals allowed, every failure a UsageError,
 * and an option given twice refused (silently keeping the last would run something not asked for).
 */
export function parseOptions<const O extends OptionsConfig>(
  argv: string[],
  options: O,
): { values: OptionValues<O>; positionals: string[] } {
  let parsed: ReturnType<typeof parseWith>;
  try {
    parsed = parseWith(argv, options);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const seen = new Map<string, string | undefined>();
  for (const token of parsed.tokens) {
    if (token.kind !== "option") continue;
    if (seen.has(token.name)) {
      const values = token.value === undefined ? "" : ` (${seen.get(token.name)}, then ${token.value})`;
      throw new UsageError(`--${token.name} is given more than once${values}; give it once`);
    }
    seen.set(token.name, token.value);
  }
  return { values: parsed.values as OptionValues<O>, positionals: parsed.positionals };
}

/** Each option's value when given: no option here is `multiple`, and none has a default. */
type OptionValues<O extends OptionsConfig> = {
  [K in keyof O]?: O[K] extends { type: "boolean" } ? boolean : string;
};

function parseWith(argv: string[], options: OptionsConfig) {
  return parseArgs({ args: argv, allowPositionals: true, tokens: true, options });
}
