/**
 * Return reasons and order-number rules, as data. The reason enum is the tool's
 * (`defective` | `damaged` | `other`); the order number is four digits (docs/domain.md).
 */
import type { Lang } from "./text";

export type Reason = "damaged" | "defective" | "other";

/** Checked in this order: "arrived broken and doesn't work" is damage first. */
export const REASON_ORDER: readonly Reason[] = ["damaged", "defective", "other"];

/**
 * Cues that describe what is wrong ("it leaks", «протекает») rather than name the reason
 * ("defective", «брак»): they find the reason, and they are also the customer's own words, so
 * the comment keeps them (stripping them left "it leaks" with no comment at all).
 */
export const DESCRIBING_CUES: Record<Lang, string[]> = {
  en: [String.raw`\b(leaks|leaking|overheats|overheating)\b`],
  ru: [String.raw`\b(течет|протекает|перегрева\p{L}*)\b`],
};

export const REASON_CUES: Record<Reason, Record<Lang, string[]>> = {
  damaged: {
    en: [
      String.raw`\b(damag\p{L}*|broke|broken|breaks|smashed|cracked|cracks?|shattered|dented|dents?|scratched|scratches|bent|crushed|torn|ripped|chipped|in pieces|destroyed)\b`,
    ],
    ru: [
      String.raw`\b(поврежд\p{L}*|разбит\p{L}*|разбил\p{L}*|сломан\p{L}*|сломал\p{L}*|треснул\p{L}*|трещин\p{L}*|помят\p{L}*|поцарапан\p{L}*|царапин\p{L}*|вмятин\p{L}*|раздавлен\p{L}*|порван\p{L}*|деформир\p{L}*|бит(ый|ая|ое|ые|ым|ой)|раскол\p{L}*|покорежен\p{L}*|отбит\p{L}*|отколот\p{L}*|расколот\p{L}*)\b`,
    ],
  },
  defective: {
    en: [
      String.raw`\b(defective|defect|defects|faulty|malfunction\p{L}*|dead on arrival|doa|glitchy|buggy)\b`,
      String.raw`\b(doesn't|does not|doesnt|don't|dont|won't|wont|will not|didn't|did not|isn't|is not|not|never|stopped|no longer)\s+(work|works|working|turn on|turns on|start|starts|charge|charges|charging|heat|heats|heating|power on|switch on|function|functioning)\b`,
      ...DESCRIBING_CUES.en,
    ],
    ru: [
      String.raw`\b(брак\p{L}*|неисправ\p{L}*|дефект\p{L}*|глючит|не функционир\p{L}*)\b`,
      String.raw`\bне\s+(работа\p{L}*|включа\p{L}*|заряжа\p{L}*|грее\p{L}*|нагрева\p{L}*|запуска\p{L}*|варит)\b`,
      String.raw`\b(перестал\p{L}* (работать|включаться))\b`,
      ...DESCRIBING_CUES.ru,
    ],
  },
  other: {
    en: [
      String.raw`\b(wrong (size|item|colou?r|model|product|order|one)|too (small|big|large|tight|loose|short|long)|(doesn't|does not|didn't|did not|don't) fit|changed my mind|change of mind|(don't|do not|no longer) need|(don't|didn't|do not) like|not as (described|pictured)|not what i ordered|ordered by mistake|by mistake|by accident|duplicate order|arrived (too )?late|found (it )?cheaper|better price|unwanted gift|different from|differs from|poor quality|bad quality)\b`,
    ],
    ru: [
      String.raw`\b(не подош\p{L}*|не подходит|не тот|не та|не того|не такой|не такая|передумал\p{L}*|не нужен|не нужна|больше не нужно|не понравил\p{L}*|не мой размер|маломерит|большемерит|не тот размер|не тот цвет|не соответству\p{L}*|по ошибке|ошибочно|нашел дешевле|прислали другой|другой товар|опоздал\p{L}*|долго шел|отличается|не как на фото|плохое качество|некачествен\p{L}*)\b`,
    ],
  },
};

/**
 * Words that introduce the customer's own explanation. A clause after them with real content is an
 * explicit reason even when no table above knows it ("because the colour differs from the photo").
 */
export const REASON_INTRO: Record<Lang, string> = {
  en: String.raw`\b(because|since|cause|reason is|reason being|the reason|reason)\b`,
  ru: String.raw`\b(потому что|потому как|так как|т к|причина|по причине|дело в том что|из за того что)\b`,
};

/** "not damaged", "без повреждений": removed before looking for a reason. */
export const REASON_NEGATIONS: string[] = [
  String.raw`\b(not|isn't|wasn't|isnt|wasnt|no|without)\s+(any\s+)?(damag\p{L}*|broken|defective|faulty|cracked|scratched|defects?)\b`,
  String.raw`\bне\s+(поврежд|разбит|сломан|брак|дефект)\p{L}*`,
  String.raw`\bбез\s+(повреждени|дефект|брак)\p{L}*`,
];

/**
 * An order number: four digits, alone or after a marker ("#8041", "№8041", "order no. 8041",
 * "заказ номер 8041"). A marked number of another length is reported so the model can ask again
 * instead of guessing.
 */
export const ORDER_MARKER = String.raw`(?:#|№|\bn[or]\.?|\bno\b|\bnum(?:ber)?\b|\border\b|\bзаказ\p{L}*|\bномер\p{L}*|\bн[оo]\.)`;

/** Four-digit numbers that are money, not orders: "paid 2490 €". */
export const MONEY_BEFORE = String.raw`(?:€|\$|£|₽|\bpaid|\bcost\p{L}*|\bprice|\bзаплатил\p{L}*|\bстои\p{L}*)\s*$`;
export const MONEY_AFTER = String.raw`^\s*(?:€|\$|£|₽|eur\b|euros?\b|usd\b|dollars?\b|руб\p{L}*|р\b|евро\b|[.,]\d)`;
/** Years and times: "since 2023", "в 2024 году", "10:30". Only 19xx/20xx numbers can be years. */
export const YEAR_BEFORE = String.raw`(?:\bin|\bsince|\byear|\bв|\bс|\bгод\p{L}*)\s*$`;
export const YEAR_AFTER = String.raw`^\s*(?:years?\b|год\p{L}*|г\b)`;

/** Words that say nothing beyond the reason itself; a comment must carry something else. */
export const FILLER_WORDS: Record<Lang, string[]> = {
  en: (
    "the a an it its it's is was were be been being has have had and or but so i i'm me my we our you your " +
    "this that these those item items product thing stuff order package parcel box arrived came come got " +
    "received delivered when in on at of for to with from just totally completely very really all also " +
    "already please pls return request refund create file open make start submit want would like need " +
    "because since as reason number no hi hello thanks unfortunately sadly which there here one whole " +
    "upon arrival seems seem looks look like kind sort bit quite unit they them their he she him her"
  ).split(" "),
  ru: (
    "я мне мой моя мое мои меня мы он она оно они его ее это этот эта и а но в во на с со к по за из у о об " +
    "что чтобы как так же был была было были есть товар товара заказ заказа заказу номер посылка посылку " +
    "пришел пришла пришло пришли приехал приехала доставили получил получила полностью совсем весь вся все " +
    "очень уже пожалуйста возврат возврата заявку заявка оформите оформить создайте создать хочу прошу " +
    "причина причине том потому здравствуйте привет спасибо сожалению просто тоже еще нужно вернуть верните " +
    "деньги оказался оказалась оказалось вообще прям прямо просто сразу при получении их ее её им"
  ).split(" "),
};
