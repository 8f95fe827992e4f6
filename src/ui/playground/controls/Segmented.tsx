import { helpId } from "./Field";

export interface SegmentedProps<T extends string> {
  id: string;
  label: string;
  help: string;
  options: readonly T[];
  labels: Record<T, string>;
  value: T;
  onChange(value: T): void;
}

/** A small radio group drawn as joined buttons; arrow keys move between options (native radios). */
export function Segmented<T extends string>({ id, label, help, options, labels, value, onChange }: SegmentedProps<T>) {
  return (
    <div className="field">
      <fieldset className="segmented" aria-describedby={helpId(id)}>
        <legend>{label}</legend>
        {options.map((option) => (
          <label key={option} className={option === value ? "on" : ""}>
            <input
              type="radio"
              name={id}
              value={option}
              checked={option === value}
              aria-describedby={helpId(id)}
              onChange={() => onChange(option)}
            />
            {labels[option]}
          </label>
        ))}
      </fieldset>
      <div role="tooltip" id={helpId(id)} className="field-help">
        {help}
      </div>
    </div>
  );
}
