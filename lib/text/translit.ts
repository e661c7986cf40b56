/**
 * Russian typed in Latin letters ("hochu vernut zakaz 7718, on slomalsya"), as customers without a
 * Cyrillic keyboard write it. The one place that decides whether a Latin text is Russian and reads
 * it back into Cyrillic, so the language detector (language.ts), the offline model and everything
 * that asks them agree. Client-safe.
 *
 * The letters are cyrillic-to-translit-js's reverse (its Russian preset). Customers do not keep to
 * one scheme, so before it the informal spellings are brought to the library's (h -> kh, c -> ts,
 * j -> y, w -> v, x -> ks), and after it what its scheme cannot tell apart is: "y" is both й and ы,
 * and й is the one after a vowel ("moy", "pozhaluysta"); ' is the soft sign; a first "e" is е
 * ("ego", "eshche") but in это and its forms.
 */
import CyrillicToTranslit from "cyrillic-to-translit-js";

const reverse = CyrillicToTranslit({ preset: "ru" }).reverse;

/**
 * Words that only Russian has, as they read back in Cyrillic: function words and this shop's
 * vocabulary. A text is Russian when more of its words are these than are English words below.
 * Short or ambiguous readings are left out: "my" would read as "мы", "status" as "статус".
 */
const RUSSIAN = new Set([
  "не",
  "на",
  "мне",
  "мой",
  "мои",
  "моя",
  "мое",
  "моего",
  "где",
  "что",
  "чтобы",
  "как",
  "это",
  "этот",
  "эту",
  "уже",
  "еще",
  "да",
  "нет",
  "его",
  "ее",
  "вы",
  "когда",
  "можно",
  "хочу",
  "хотим",
  "надо",
  "нужно",
  "почему",
  "тогда",
  "пожалуйста",
  "спасибо",
  "привет",
  "здравствуйте",
  "до",
  "по",
  "за",
  "из",
  "для",
  "или",
  "но",
  "он",
  "она",
  "оно",
  "они",
]);
const RUSSIAN_STEMS = [
  "заказ",
  "возврат",
  "вернит",
  "вернут",
  "верну",
  "отмен",
  "адрес",
  "достав",
  "сломал",
  "брак",
  "поврежд",
  "пожалу",
  "спасиб",
  "здравств",
  "помен",
  "измен",
  "товар",
  "деньг",
  "посылк",
  "оформ",
  "хотел",
  "передума",
  "работает",
  "пришел",
  "пришла",
];
const ENGLISH = new Set(
  (
    "the a an is are was were be been my me i you your it its to of and or in on at for with " +
    "this that please order orders where when what how why can could would should do does did " +
    "not don't dont no yes hi hello thanks thank return refund cancel change address delivery " +
    "want need like would have has had will just still if then so but from by about"
  ).split(" "),
);

const LETTERS_ONLY = /^[a-z']+$/i;

/** One Latin word in the library's scheme, then in Cyrillic, with й and ь restored. */
function wordToCyrillic(word: string): string {
  const scheme = word
    .toLowerCase()
    .replace(/(?<![kzcs])h/g, "kh")
    .replace(/c(?!h)/g, "ts")
    .replace(/j/g, "y")
    .replace(/w/g, "v")
    .replace(/x/g, "ks")
    .replace(/q/g, "k");
  return (
    reverse(scheme)
      .replace(/([аеёиоуыэюя])ы/gu, "$1й")
      .replace(/'/g, "ь")
      // The library reads a first "e" as э; in Russian that is rare but for это, этот, эта.
      .replace(/^э(?!т)/u, "е")
  );
}

const isRussianWord = (cyrillic: string) =>
  RUSSIAN.has(cyrillic) || RUSSIAN_STEMS.some((s) => cyrillic.startsWith(s));

/**
 * Whether a text with no Cyrillic in it is Russian in Latin letters: more of its words read as
 * Russian than are English. One Russian word is enough when nothing is English ("spasibo").
 */
export function isTranslitRussian(text: string): boolean {
  if (/\p{Script=Cyrillic}/u.test(text)) return false;
  const words = text.toLowerCase().match(/[a-z']+/g) ?? [];
  let russian = 0;
  let english = 0;
  for (const w of words) {
    if (ENGLISH.has(w)) english++;
    else if (isRussianWord(wordToCyrillic(w))) russian++;
  }
  return russian > english;
}

/**
 * The text read back into Cyrillic, or null when it is not Russian in Latin letters. Kept as
 * typed: anything with a digit, @ or #, and capitalised words inside a sentence (a name, a street,
 * a city, a country code: data, not words to understand).
 */
export function fromTranslit(text: string): string | null {
  if (!isTranslitRussian(text)) return null;
  let sentenceStart = true;
  return text.replace(/[^\s]+/g, (token) => {
    const start = sentenceStart;
    sentenceStart = /[.!?]$/.test(token);
    const word = token.match(/^([("«]*)([A-Za-z']+)([.,!?;:)»"]*)$/);
    if (!word) return token;
    const [, open, letters, close] = word as unknown as [string, string, string, string];
    if (!LETTERS_ONLY.test(letters) || (!start && /^[A-Z]/.test(letters))) return token;
    const cyr = wordToCyrillic(letters);
    const cased = /^[A-Z]/.test(letters) ? cyr.charAt(0).toUpperCase() + cyr.slice(1) : cyr;
    return `${open}${cased}${close}`;
  });
}
