import { z } from "zod";
import { NON_FINITE_TEXT, numberFromJson } from "./jsonNumberText";

/**
 * Validators for the big arrays of a case file. zod's own `z.array(z.number())` makes one issue per
 * bad element and gathers them with `push(...issues)`, which overflows the stack at about 130,000
 * (a RangeError instead of a message). These walk the array once and report at most
 * MAX_ISSUES_PER_FIELD elements, each with its index; the last issue carries how many more bad
 * elements the field has (`params.more`), so the total is still told.
 */
export const MAX_ISSUES_PER_FIELD = 10;

/** Why an element is not acceptable, or undefined when it is. */
type ElementCheck = (value: unknown) => string | undefined;

type Ctx = z.core.$RefinementCtx<unknown>;

/** A plain description of a JSON value for a message: `the string "0.5"`, `null`, `an object`. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") {
    const cut = value.length > 30 ? `${value.slice(0, 30)}…` : value;
    return `the string ${JSON.stringify(cut)}`;
  }
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return String(value);
}

export const finiteNumber: ElementCheck = (value) => {
  if (typeof value !== "number") return `expected a number, got ${describeValue(value)}`;
  // JSON.parse turns a literal beyond the float64 range (1e400) into ±Infinity.
  if (!Number.isFinite(value)) return `expected a finite number, got ${value} (beyond the float64 range)`;
  return undefined;
};

/** A number, or NaN / ±Infinity written as text ("NaN", "Infinity", "-Infinity"; jsonNumberText). */
export const anyNumber: ElementCheck = (value) =>
  numberFromJson(value) === undefined
    ? `expected a number or one of ${NON_FINITE_TEXT.map((t) => JSON.stringify(t)).join(", ")}, got ${describeValue(value)}`
    : undefined;

export const maskValue: ElementCheck = (value) =>
  value === 0 || value === 1 ? undefined : `a loss mask value is 0 or 1, got ${describeValue(value)}`;

export const nonNegativeInteger: ElementCheck = (value) =>
  Number.isInteger(value) && (value as number) >= 0
    ? undefined
    : `expected a non-negative integer, got ${describeValue(value)}`;

export const integer: ElementCheck = (value) =>
  Number.isInteger(value) ? undefined : `expected an integer, got ${describeValue(value)}`;

/** Gathers bad elements with a cap; `close` reports them, the last one with the count of the rest. */
class IssueBudget {
  private readonly listed: { path: (string | number)[]; message: string }[] = [];
  private more = 0;

  constructor(private readonly ctx: Ctx) {}

  add(path: (string | number)[], message: string): void {
    if (this.listed.length < MAX_ISSUES_PER_FIELD) this.listed.push({ path, message });
    else this.more++;
  }

  close(): void {
    this.listed.forEach(({ path, message }, i) => {
      const last = i === this.listed.length - 1 && this.more > 0;
      this.ctx.addIssue({ code: "custom", path, message, ...(last ? { params: { more: this.more } } : {}) });
    });
  }
}

function checkElements(values: unknown[], check: ElementCheck, budget: IssueBudget, prefix: (string | number)[]) {
  for (let i = 0; i < values.length; i++) {
    const why = check(values[i]);
    if (why !== undefined) budget.add([...prefix, i], why);
  }
}

/** An array whose elements all pass `check`; `what` names them in the message for a non-array. */
export function checkedArray<T>(check: ElementCheck, what: string): z.ZodType<T[]> {
  return z.custom<T[]>().superRefine((value, ctx) => {
    if (!Array.isArray(value)) {
      ctx.addIssue({ code: "custom", message: notAnArray(value, `an array of ${what}`) });
      return;
    }
    const budget = new IssueBudget(ctx);
    checkElements(value, check, budget, []);
    budget.close();
  });
}

/** An array of rows (one per sequence), every element of every row passing `check`. */
export function checkedRows<T>(check: ElementCheck, what: string): z.ZodType<T[][]> {
  return z.custom<T[][]>().superRefine((value, ctx) => {
    if (!Array.isArray(value)) {
      ctx.addIssue({ code: "custom", message: notAnArray(value, `an array of rows of ${what}`) });
      return;
    }
    const budget = new IssueBudget(ctx);
    for (let row = 0; row < value.length; row++) {
      const values: unknown = value[row];
      if (Array.isArray(values)) checkElements(values, check, budget, [row]);
      else budget.add([row], `expected a row of ${what}, got ${describeValue(values)}`);
    }
    budget.close();
  });
}

function notAnArray(value: unknown, expected: string): string {
  return value === undefined ? `missing field (${expected})` : `expected ${expected}, got ${describeValue(value)}`;
}

export const numbers = checkedArray<number>(finiteNumber, "numbers");
export const raggedNumbers = checkedRows<number>(finiteNumber, "numbers");
export const masks = checkedRows<0 | 1>(maskValue, "0/1 loss mask values");
export const maskRow = checkedArray<0 | 1>(maskValue, "0/1 loss mask values");
export const counts = checkedArray<number>(nonNegativeInteger, "non-negative integers");
export const integers = checkedArray<number>(integer, "integers");

/** Numbers that may be NaN or ±Infinity, written as text in the file and read back as numbers. */
export const anyNumbers = checkedArray<number | string>(anyNumber, "numbers").transform((values) =>
  values.map((v) => numberFromJson(v) as number),
);
/** One number that may be NaN or ±Infinity, written as text. */
export const anyScalar = z
  .custom<number | string>((v) => anyNumber(v) === undefined, {
    error: (issue) => anyNumber(issue.input) ?? "expected a number",
  })
  .transform((v) => numberFromJson(v) as number);
