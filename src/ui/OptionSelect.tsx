import type { ReactNode, SelectHTMLAttributes } from "react";

export interface OptionSelectProps<T extends string | number>
  extends Omit<SelectHTMLAttributes<HTMLSelectElement>, "value" | "onChange"> {
  /** The choices, in the order shown. */
  options: readonly T[];
  value: T;
  /** What the menu shows for a choice (the choice itself by default). */
  optionLabel?(option: T): ReactNode;
  /** The choice picked, a number again where the choices are numbers. */
  onChoose(option: T): void;
  testId?: string;
}

/** A menu of fixed choices: the controls' `<select>` with one `<option>` per choice. */
export function OptionSelect<T extends string | number>({
  options,
  value,
  optionLabel = (option) => option,
  onChoose,
  testId,
  ...select
}: OptionSelectProps<T>) {
  return (
    <select
      {...select}
      value={value}
      data-testid={testId}
      onChange={(event) => {
        const picked = event.currentTarget.value;
        onChoose((typeof value === "number" ? Number(picked) : picked) as T);
      }}
    >
      {options.map((option) => (
        <option key={option} value={option}>
          {optionLabel(option)}
        </option>
      ))}
    </select>
  );
}
