/**
 * Cancellation reasons, as data: the cancel_order tool's enum (`changed_mind` |
 * `ordered_by_mistake` | `found_cheaper` | `other`). A request without a recognised reason is
 * `other`: cancelling needs no justification, so the model never asks for one.
 */
import type { Lang } from "./text";
import { re } from "./text";

export type CancelReason = "changed_mind" | "ordered_by_mistake" | "found_cheaper" | "other";

const CANCEL_REASON_CUES: [CancelReason, Record<Lang, string[]>][] = [
  [
    "ordered_by_mistake",
    {
      en: [
        String.raw`\b(by mistake|mistakenly|by accident|accidentally|ordered (it )?twice|duplicate order|wrong order|didn't mean to)\b`,
      ],
      ru: [String.raw`\b(по ошибке|ошибочно|случайно|дважды|не тот заказ)\b`],
    },
  ],
  [
    "found_cheaper",
    {
      en: [String.raw`\b(cheaper|better price|lower price|better deal)\b`],
      ru: [String.raw`\b(дешевле|выгоднее|по лучшей цене)\b`],
    },
  ],
  [
    "changed_mind",
    {
      en: [
        String.raw`\b(changed my mind|change of mind|(don't|do not|no longer) (need|want) (it|this|that)|not needed)\b`,
      ],
      ru: [String.raw`\b(передумал\p{L}*|не нужен|не нужна|не нужно|больше не нужн\p{L}*)\b`],
    },
  ],
];

const COMPILED = CANCEL_REASON_CUES.map(
  ([reason, byLang]) => [reason, [...byLang.en, ...byLang.ru].map((s) => re(s))] as const,
);

/** The reason a cancellation request gives, from its normalised text; `other` by default. */
export function cancelReason(canon: string): CancelReason {
  for (const [reason, patterns] of COMPILED) if (patterns.some((p) => p.test(canon))) return reason;
  return "other";
}
