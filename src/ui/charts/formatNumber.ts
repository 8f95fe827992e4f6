/** The formatting moved to io (the player's model below the UI uses it too); the charts import it from here. */
export { formatExact64, formatShort, formatValue } from "../../io/formatNumber";
