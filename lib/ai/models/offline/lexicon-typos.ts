/** Typo correction data for correctToken (text.ts). */
/**
 * Stems the typo corrector may restore (see correctToken): words that carry intent and are long
 * enough that one wrong letter is still clearly them.
 */
export const TYPO_STEMS = [
  "return",
  "refund",
  "order",
  "where",
  "status",
  "tracking",
  "damag",
  "broke",
  "defect",
  "faulty",
  "working",
  "create",
  "request",
  "polic",
  "delivered",
  "shipped",
  "cracked",
  "hello",
  "thanks",
  "please",
  "возврат",
  "вернуть",
  "заказ",
  "статус",
  "поврежд",
  "разбит",
  "сломан",
  "оформ",
  "создайте",
  "заявк",
  "достав",
  "здравствуйте",
  "спасибо",
  "пожалуйста",
  "условия",
];

/** Real words that sit one typo away from a stem and must stay as they are. */
export const TYPO_KEEP = new Set([
  "older",
  "border",
  "chance",
  "chances",
  "charge",
  "charged",
  "charges",
  "ordered",
  "orders",
  "police",
  "retain",
  "statue",
  "were",
]);
