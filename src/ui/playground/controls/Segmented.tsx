import { Term } from "../../glossary/Term";
import { helpId } from "./Field";

export interface SegmentedProps<T extends string> {
  id: string;
  label: string;
  /** The glossary word the group sets: the legend's words open its definition. */
  term?: string;
  /** One line on what the group does, shown under it. */
  help?: string;
  options: readonly T[];
  labels: Record<T, string>;
  value: T;
  onChange(value: T): void;
}

/** A small radio group drawn as joined buttons; arrow keys move between options (native radios). */
export function Segmented<T extends string>({
  id,
  label,
  term,
  help,
  options,
  labels,
  value,
  onChange,
}: SegmentedProps<T>) {
  const described = help ? helpId(id) : undefined;
  return (
    <div className="field">
      <fieldset className="segmented" aria-describedby={described}>
        <legend>{term ? <Term word={term}>{label}</Term> : label}</legend>
        {options.map((option) => (
          <label key={option} className={option === value ? "on" : ""}>
            <input
              type="radio"
              name={id}
              value={option}
              checked={option === value}
              aria-describedby={described}
              onChange={() => onChange(option)}
            />
            {labels[option]}
          </label>
        ))}
      </fieldset>
      {help ? (
        <div id={helpId(id)} className="field-hint">
          {help}
        </div>
      ) : null}
    </div>
  );
}
