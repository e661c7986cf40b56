export type { Behaviour } from "./decide";
export { OfflineLanguageModel, type OfflineModelOptions } from "./model";
export { type OpenReturn, parseSummary, renderSummary, type SummaryFacts } from "./summary-format";
