import { formatShort } from "../../../io/formatNumber";
import { Term } from "../../glossary/Term";
import { chunkPowerUnderflows, float32ChunkPower, GAMMA_STOPS, horizon, nearestStop, type Parsed } from "./controlMath";
import { Field, helpId } from "./Field";
import { NumberEntry } from "./NumberEntry";

export interface GammaControlProps {
  gamma: number;
  /** The scan's discount: γ, or γλ for GAE. */
  discount: number;
  discountLabel: string;
  chunkSize: number;
  parse(text: string): Parsed;
  onChange(gamma: number): void;
  /** A tick of the slider (its ticks while dragged are one edit). */
  onSlide(gamma: number): void;
  onInvalid(reason: string | null): void;
  invalid: string | null;
}

const HELP = "The slider steps through common values; type any value in [0, 1].";

/** γ as a slider over meaningful stops plus exact entry, with the horizon and γ^C as float32 sees it. */
export function GammaControl({
  gamma,
  discount,
  discountLabel,
  chunkSize,
  parse,
  onChange,
  onSlide,
  onInvalid,
  invalid,
}: GammaControlProps) {
  const power = float32ChunkPower(discount, chunkSize);
  const underflow = chunkPowerUnderflows(discount, chunkSize);
  const h = horizon(gamma);
  return (
    <Field id="pg-gamma" label="γ (discount)" term="Discount" help={HELP} invalid={invalid}>
      <div className="gamma-row">
        <input
          type="range"
          min={0}
          max={GAMMA_STOPS.length - 1}
          step={1}
          value={nearestStop(gamma)}
          aria-label="γ stop"
          aria-valuetext={String(GAMMA_STOPS[nearestStop(gamma)])}
          aria-describedby={helpId("pg-gamma")}
          list="pg-gamma-stops"
          onChange={(event) => onSlide(GAMMA_STOPS[Number(event.currentTarget.value)])}
        />
        <datalist id="pg-gamma-stops">
          {GAMMA_STOPS.map((stop, i) => (
            <option key={stop} value={i} label={String(stop)} />
          ))}
        </datalist>
        <NumberEntry
          id="pg-gamma"
          value={gamma}
          parse={parse}
          onCommit={onChange}
          onInvalid={onInvalid}
          describedBy={helpId("pg-gamma")}
          testId="gamma-input"
        />
      </div>
      <div className="derived num">
        <span>
          <Term word="Horizon">horizon</Term> {Number.isFinite(h) ? `${formatShort(h)} tok` : "∞"}
        </span>
        <span title={`${discountLabel}^C in float32: the discount across one whole chunk`}>
          {discountLabel}^{chunkSize} = {formatShort(power)}
        </span>
        {underflow ? (
          <span className="chip warn" role="status" data-testid="underflow-chip">
            {discountLabel}^C underflows to 0 in float32
          </span>
        ) : null}
      </div>
    </Field>
  );
}
