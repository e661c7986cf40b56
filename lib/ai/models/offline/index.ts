export type { Behaviour } from "./decide";
export { extractOrderNumbers } from "./extract";
export { OfflineLanguageModel, type OfflineModelOptions } from "./model";
export { openReturnRequest } from "./open-request";
export {
  EMPTY_FACTS,
  type OpenReturn,
  parseSummary,
  renderSummary,
  type SummaryFacts,
} from "./summary-format";
export { detectLanguage, type Lang } from "./text";
