/**
 * The customer asks for a person ("I want to talk to a human", «позовите оператора»): the
 * offline model calls `request_human`, which hands the chat to staff (lib/chat/handoff). A question
 * about people ("do humans read this?") is not a request; asking for one is.
 */
import type { Utterance } from "./classify";
import { re } from "./text";

const PERSON = String.raw`(human|person|people|operator|agent|someone real|real person|live (agent|chat|person)|manager|staff|support team|оператор\p{L}*|человек\p{L}*|живо\p{L}* (человек\p{L}*|сотрудник\p{L}*|оператор\p{L}*)|сотрудник\p{L}*|менеджер\p{L}*|специалист\p{L}*)`;

const ASKS_FOR_PERSON = [
  re(
    String.raw`\b(talk|speak|chat|connect|put|transfer|get|want|need|give)\b.{0,30}\b(to|with|me|a|an)?\b.{0,12}\b${PERSON}\b`,
  ),
  re(`^(a |an )?${PERSON}( please| pls)?$`),
  re(
    String.raw`\b(позов\p{L}*|зов\p{L}*|соедин\p{L}*|переключ\p{L}*|хочу|нужен|нужна|дайте|позвать|свяжите)\b.{0,30}\b${PERSON}`,
  ),
  re(`^${PERSON}( пожалуйста)?$`),
];

export function asksForPerson(u: Utterance): boolean {
  const text = u.text
    .trim()
    .toLowerCase()
    .replace(/[!?.,]+$/u, "");
  return ASKS_FOR_PERSON.some((r) => r.test(text));
}
