/** Moved to src/compute/run; this re-export serves RunSampleChart/RunSampleFields until the token charts' rewrite lands (then import compute/run directly and delete it). */
export {
  firstPicked,
  REPLAY_ENGINE,
  replayedRow,
  type SampleFieldsAnswer,
  STORED_ENGINE,
  type StoredFieldName,
  type TokenField,
  tokenFields,
} from "../../compute/run/sampleFields";
