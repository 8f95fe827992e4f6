import { nextPowerOfTwo, type Parsed, parseChunkSize } from "./controlMath";
import { Field, helpId } from "./Field";
import { NumberEntry } from "./NumberEntry";

export interface ChunkSizeControlProps {
  chunkSize: number;
  /** The padded row length, to say when one chunk holds the whole row. */
  maxLength: number;
  /** Extra checks of the whole state (the schema's limits). */
  parse(text: string): Parsed;
  onChange(chunkSize: number): void;
  onInvalid(reason: string | null): void;
  invalid: string | null;
}

const HELP =
  "Tokens per local scan (one C×C matrix product per chunk); the carries link the chunks. − and + step over powers of two; any whole number works.";

/** Chunk size: a stepper over powers of two and free entry; a bad value is refused with its reason. */
export function ChunkSizeControl({ chunkSize, maxLength, parse, onChange, onInvalid, invalid }: ChunkSizeControlProps) {
  const chunks = maxLength > 0 ? Math.ceil(maxLength / chunkSize) : 0;
  return (
    <Field id="pg-chunk" label="Chunk size C" term="Chunk" help={HELP} invalid={invalid}>
      <div className="stepper">
        <button
          type="button"
          aria-label="Halve the chunk size (previous power of two)"
          aria-describedby={helpId("pg-chunk")}
          disabled={chunkSize <= 1}
          onClick={() => onChange(nextPowerOfTwo(chunkSize, -1))}
        >
          −
        </button>
        <NumberEntry
          id="pg-chunk"
          value={chunkSize}
          parse={(text) => {
            const own = parseChunkSize(text);
            return own.ok ? parse(text) : own;
          }}
          onCommit={onChange}
          onInvalid={onInvalid}
          describedBy={helpId("pg-chunk")}
          width="6ch"
          testId="chunk-size-input"
        />
        <button
          type="button"
          aria-label="Double the chunk size (next power of two)"
          aria-describedby={helpId("pg-chunk")}
          onClick={() => {
            const next = nextPowerOfTwo(chunkSize, 1);
            const checked = parse(String(next));
            if (checked.ok) onChange(next);
            else onInvalid(checked.reason);
          }}
        >
          +
        </button>
        <span className="derived num">{chunks === 1 ? "one chunk holds every row" : `${chunks} chunks per row`}</span>
      </div>
    </Field>
  );
}
