import type { ReactNode } from "react";
import { OptionSelect } from "../../OptionSelect";
import { Field, type FieldProps, helpId } from "./Field";

export interface SelectFieldProps<T extends string> extends Omit<FieldProps, "children"> {
  /** The choices, in the order shown. */
  options: readonly T[];
  selected: T;
  /** What the menu shows for a choice. */
  optionLabel(option: T): ReactNode;
  onSelect(option: T): void;
  testId: string;
}

/** A labelled menu of fixed choices: a Field holding a select, its help tied to it for screen readers. */
export function SelectField<T extends string>({
  options,
  selected,
  optionLabel,
  onSelect,
  testId,
  ...field
}: SelectFieldProps<T>) {
  return (
    <Field {...field}>
      <OptionSelect
        id={field.id}
        options={options}
        value={selected}
        optionLabel={optionLabel}
        aria-describedby={helpId(field.id)}
        testId={testId}
        onChoose={onSelect}
      />
    </Field>
  );
}
