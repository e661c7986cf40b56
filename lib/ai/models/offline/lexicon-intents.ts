/**
 * What customers say, as data: per intent, per language, the phrases that signal it. Patterns run
 * on normalised, typo-corrected text (lower case, ё -> е, punctuation stripped; see text.ts), with
 * `\b` meaning a Unicode word boundary. To teach the model a new phrasing, add a line here and a
 * row to the utterance table in tests/unit/offline-model-utterances.test.ts.
 *
 * Which intent wins when several match is decided by the rule table in decide.ts, not here. A
 * write tool's own phrases (asking for it, asking about it, saying not to: a return's too) are in
 * its folder (lib/tools/<tool>/offline.ts), not here.
 */
import type { Lang } from "./text";

export type Cue =
  /** Things no tool does and the agent must not do: shell, files, other customers, jailbreaks. */
  | "forbidden"
  /** Reasonable wishes with no tool: change an order, stop a return, talk to a human. */
  | "unsupported"
  /** "I don't want to return it", "just asking": never a request. */
  | "not_requesting"
  /** "How do I...", "after how many days", "the return policy": makes a request-looking sentence a question. */
  | "asking"
  | "order_status"
  | "affirm"
  | "deny"
  | "greeting"
  | "thanks"
  | "farewell"
  | "capabilities";

type CueTable = Record<Cue, Record<Lang, string[]>>;

// "Just asking" and "the return policy" are said with the words for giving something back (the
// return's own rows use the same words, and their Russian ones, for asking for one).
const RETURN_EN = String.raw`(return|returns|returning|refund|refunds|send( \p{L}+){0,2} back|take( \p{L}+){0,2} back|money back|rma)`;

export const CUES: CueTable = {
  forbidden: {
    en: [
      String.raw`\b(shell|bash|zsh|powershell|terminal|command line|cmd exe)\b`,
      String.raw`\b(run|execute|exec|launch)\b.{0,30}\b(command|commands|script|code|program)\b`,
      String.raw`\b(run|execute|exec)\b.{0,40}\b(server|machine|system|computer|container)\b`,
      String.raw`\b(write|generate|create)\b.{0,20}\b(code|script|program|poem|essay|story|song|article)\b`,
      String.raw`\b(orders?|order history|purchases|address|details|data|info)\b.{0,15}\b(of|for|from|about)\b\s*[\p{L}\d._-]+@`,
      String.raw`\b(rm rf|sudo|chmod|drop table|sql injection|xss|exploit|hack|hacking)\b`,
      String.raw`\b(delete|remove|wipe|erase|drop|destroy)\b.{0,30}\b(files?|folders?|director(y|ies)|database|db|tables?|project|server|disk|repo|repository|everything|all data)\b`,
      String.raw`\b(ignore|disregard|forget|override|bypass)\b.{0,40}\b(instructions?|rules?|prompt|guidelines|restrictions?|policy)\b`,
      String.raw`\b(system prompt|developer mode|jailbreak|dan mode|god mode|admin mode|unrestricted)\b`,
      String.raw`\b(pretend|act as|you are now|roleplay|role play)\b`,
      String.raw`\b(other|another|someone else's|someone elses|somebody else's|all|every|each|any)\b.{0,12}\b(customers?|customer's|users?|user's|clients?|people|person's)\b`,
      String.raw`\b(passwords?|api keys?|credit card numbers?|card numbers?|ssh keys?|tokens?)\b`,
      String.raw`\b(i am|i'm|im)\b.{0,15}\b(admin|administrator|developer|staff|owner|ceo|support agent)\b`,
      String.raw`\b(all|every|everyone's)\s+(orders|order|returns|refunds)\b`,
      String.raw`\b(weather|poem|song|joke|recipe|bitcoin|stock price|homework|essay|translate|capital of|president of)\b`,
    ],
    ru: [
      String.raw`\b(shell|bash|шелл|баш|терминал\p{L}*|консол\p{L}*|командн\p{L}* строк\p{L}*)\b`,
      String.raw`\b(выполн|запуст|исполн)\p{L}*\b.{0,30}\b(команд|скрипт|код|программ)\p{L}*`,
      String.raw`\b(напиши|написать|напишите|сгенерируй|сочини)\b.{0,20}\b(код|скрипт|программ|стих|сочинени|эссе|рассказ|песн)\p{L}*`,
      String.raw`\b(заказ\p{L}*|адрес\p{L}*|данны\p{L}*|истори\p{L}*)\b.{0,15}[\p{L}\d._-]+@`,
      String.raw`\b(rm rf|sudo|взлом\p{L}*|хак\p{L}*|sql инъекц\p{L}*)\b`,
      String.raw`\b(удал|стер|сотр|снес|уничтож|очист)\p{L}*\b.{0,30}\b(файл|папк|каталог|директори|баз|таблиц|проект|сервер|диск|репозитори|истори|вс[её]\b|всю\b|весь\b)\p{L}*`,
      String.raw`\b(игнорир|проигнорир|забудь|забыть|отмени)\p{L}*\b.{0,40}\b(инструкц|правил|указани|промпт|ограничени)\p{L}*`,
      String.raw`\b(системн\p{L}* (промпт|инструкц\p{L}*)|режим\p{L}* разработчика|джейлбрейк\p{L}*)\b`,
      String.raw`\b(притворись|представь что ты|ты теперь|сыграй роль)\b`,
      String.raw`\b(чуж\p{L}*|друг\p{L}* (клиент|пользовател|покупател|человек)\p{L}*|всех (клиентов|пользователей|покупателей))\b`,
      String.raw`\b(парол\p{L}*|ключ\p{L}* api|api ключ\p{L}*|номер\p{L}* (банковской )?карт\p{L}*|токен\p{L}*)\b`,
      String.raw`\bя\b.{0,10}\b(администратор|админ|разработчик|владелец|сотрудник)\p{L}*`,
      String.raw`\b(все|всех|всем|каждого|каждому)\s+(заказ|возврат)\p{L}*`,
      String.raw`\b(погод\p{L}*|стих\p{L}*|анекдот\p{L}*|рецепт\p{L}*|биткоин\p{L}*|домашн\p{L}* задани\p{L}*|сочинени\p{L}*|переведи|столиц\p{L}*|президент\p{L}*)\b`,
    ],
  },
  unsupported: {
    en: [
      String.raw`\b(cancel|delete|withdraw|revoke|undo|stop)\b.{0,30}\b(return|request|refund|shipment|delivery)\b`,
      String.raw`\b(delete|withdraw|revoke|undo)\b.{0,30}\border\b`,
      // A delivery address has its own tool (its folder's offline.ts), so it is not this.
      // A size has its own write tool too.
      String.raw`\b(change|edit|modify)\b(?!.{0,40}\b(address|size|bigger|smaller)\b).{0,30}\b(payment|order|delivery date)\b`,
      String.raw`\b(talk|speak|chat|connect me)\b.{0,20}\b(human|person|operator|manager|supervisor|real agent|someone)\b`,
      String.raw`\b(delete|close|remove|deactivate)\b.{0,20}\b(account|profile)\b`,
    ],
    ru: [
      String.raw`\b(отмени|отмените|отменить|удали|удалите|удалить|отзовите|отозвать)\b.{0,30}\b(возврат|заявк|доставк)\p{L}*`,
      String.raw`\b(удали|удалите|удалить|отзовите|отозвать)\b.{0,30}\bзаказ\p{L}*`,
      String.raw`\b(измените|изменить|поменяйте|поменять|смените|сменить|исправьте|исправить)\b(?!.{0,40}\b(адрес|размер)).{0,30}\b(оплат|заказ|дат)\p{L}*`,
      String.raw`\b(оператор\p{L}*|живым человеком|живой человек|менеджер\p{L}*|соедини\p{L}*)\b`,
      String.raw`\b(удали|удалите|удалить|закройте|закрыть)\b.{0,20}\b(аккаунт|профил|учетн)\p{L}*`,
    ],
  },
  not_requesting: {
    en: [
      String.raw`\b(don't|dont|do not|doesn't|not|never)\b.{0,15}\b(want|need|going|plan|planning|trying)\b.{0,20}\b${RETURN_EN}`,
      String.raw`\b(don't|dont|do not|not)\b.{0,10}\b(create|file|open|submit|make|start)\b.{0,25}\b(return|request|refund)\b`,
      String.raw`\b(just|only) (asking|curious|wondering|checking|want to know)\b`,
      String.raw`\b(hypothetically|just in case|if i wanted to|if i decide|in theory)\b`,
      String.raw`\bwithout (creating|filing|opening|submitting)\b`,
    ],
    ru: [
      String.raw`\bне\s+(хочу|хотим|надо|нужно|собираюсь|планирую|буду|прошу)\b.{0,25}\b(возвр|верн|оформ|созда|сдава)\p{L}*`,
      String.raw`\b(просто|только|пока только)\s+(спрашиваю|интересуюсь|уточняю|узнаю|хочу узнать|узнать)\b`,
      String.raw`\bне\s+(оформляйте|создавайте|оформляй|создавай|надо оформлять|нужно оформлять)\b`,
      String.raw`\b(гипотетически|на всякий случай|если вдруг|если я захочу|в теории)\b`,
    ],
  },
  asking: {
    en: [
      String.raw`\b${RETURN_EN}\s*(policy|policies|terms|conditions|rules|window|period|deadline)\b`,
      String.raw`\bhow (do|can|could|would|should) (i|we|one)\b`,
      String.raw`\bhow to\b`,
      String.raw`\bwhat('s| is| are)? the (process|procedure|steps)\b`,
      String.raw`\b(how many|how long)\b.{0,15}\b(days|weeks|months)\b`,
    ],
    ru: [
      String.raw`\b(услови|правил|срок|политик|порядок)\p{L}*\b.{0,20}\bвозврат\p{L}*`,
      String.raw`\bкак\b.{0,25}\b(вернуть|оформить|возврат\p{L}*|сдать|создать|подать)\b`,
      String.raw`\bкакие (документы|условия)\b`,
      String.raw`\bсколько\b.{0,15}\b(дней|дня|день|недел\p{L}*|месяц\p{L}*|времени)\b`,
      String.raw`\bчто нужно\b`,
    ],
  },
  order_status: {
    en: [
      String.raw`\b(where|wheres|where's)\b`,
      String.raw`\b(status|track|tracking|trace|shipping|shipment|delivery|arrive|arriving|arrival|eta|dispatch|dispatched|shipped|on its way|on the way|update on|check on|news on|any news|happening with)\b`,
      String.raw`\b(when will|when does|when is|when do|how long)\b`,
      String.raw`\b(has|have|did|is|was|were)\b.{0,20}\b(shipped|arrived|been sent|left|out for delivery|delivered)\b`,
      String.raw`\b(hasn't|hasnt|haven't|havent|didn't|didnt|not yet|still not|never)\b.{0,20}\b(arrived|come|came|shipped|delivered|received)\b`,
      String.raw`\b(check|look up|lookup|find)\b.{0,15}\border\b`,
      String.raw`\b(show|list|see|view)\b.{0,15}\borders\b`,
    ],
    ru: [
      String.raw`\b(где|куда)\b`,
      String.raw`\b(статус|отслед|трек|трэк|доставк|доставят|доставлен|придет|прибуд|приед|отправ|посылк)\p{L}*`,
      String.raw`\bкогда\b`,
      String.raw`\b(что с|как там|что там|состояни\p{L}*|в пути|провер\p{L}*|узна\p{L}* про)\b`,
      String.raw`\b(покажи|показать|покажите|список)\b.{0,15}\bзаказ\p{L}*`,
    ],
  },
  affirm: {
    en: [
      String.raw`^(yes|yeah|yep|yup|sure|ok|okay|please do|go ahead|do it|correct|right|that's right|sounds good|exactly|absolutely|of course|y)\b`,
    ],
    ru: [
      String.raw`^(да|ага|угу|конечно|давайте|давай|хорошо|ок|оформляйте|оформляй|верно|именно|точно|разумеется)\b`,
    ],
  },
  deny: {
    en: [
      String.raw`^(no|nope|nah|not now|never mind|nevermind|no thanks|no thank you|forget it)\b`,
    ],
    ru: [String.raw`^(нет|не надо|не нужно|неа|пока нет|не сейчас|не стоит|отбой)\b`],
  },
  greeting: {
    en: [
      String.raw`\b(hi|hello|hey|hiya|howdy|good (morning|afternoon|evening|day)|greetings|yo|hallo|helo)\b`,
    ],
    ru: [
      String.raw`\b(привет\p{L}*|здравствуй\p{L}*|здрасте|здрасьте|добр\p{L}* (день|вечер|утро|времени суток)|доброе утро|доброго времени|приветствую|хай|салют)\b`,
    ],
  },
  thanks: {
    en: [String.raw`\b(thanks|thank you|thank u|thx|ty|cheers|appreciate it|much appreciated)\b`],
    ru: [String.raw`\b(спасибо|спс|благодар\p{L}*|мерси|спасибочки)\b`],
  },
  farewell: {
    en: [String.raw`\b(bye|goodbye|good bye|see you|see ya|have a nice day|take care)\b`],
    ru: [String.raw`\b(пока|до свидания|всего доброго|хорошего дня|до встречи)\b`],
  },
  capabilities: {
    en: [
      String.raw`\b(what can you do|who are you|what are you|what do you do|how can you help|can you help|help me|help)\b`,
    ],
    ru: [
      String.raw`\b(что (ты|вы) (умеешь|умеете|можешь|можете)|кто (ты|вы)|чем (ты|вы) (можешь|можете) помочь|помоги\p{L}*|помощь)\b`,
    ],
  },
};
