/**
 * The second held-out set: twenty more address and follow-up requests, ten in English and ten in
 * Russian, written before anyone looked at how the offline model handles them (the first set,
 * eval/heldout.table.ts, has been seen and tuned on, so its figure no longer says anything about
 * phrasings nobody taught it). `npm run eval -- --table=fresh` runs them alone, through the same
 * pipeline and judge. Never bend a row here to make the model pass: a fix goes into the model's
 * tables, and a row that fails stays.
 */
import type { Row } from "./utterances.table";

type Address = {
  name: string | null;
  line1: string;
  line2: string | null;
  postalCode: string;
  city: string;
  country: string;
};

const at = (line1: string, postalCode: string, city: string, country: string): Address => ({
  name: null,
  line1,
  line2: null,
  postalCode,
  city,
  country,
});
const move = (orderId: string, address: Address): Row["expect"] => ({
  class: "change_delivery_address",
  args: { orderId, address },
});
const status = (orderId: string): Row["expect"] => ({
  class: "get_order_status",
  orderIds: [orderId],
});
const en = (say: string | string[], expect: Row["expect"]): Row => ({ say, lang: "en", expect });
const ru = (say: string | string[], expect: Row["expect"]): Row => ({ say, lang: "ru", expect });

export const HELDOUT_FRESH: Row[] = [
  en(
    "hi, my order 3004 needs to go to Damrak 1, 1012 LG Amsterdam, Netherlands please",
    move("3004", at("Damrak 1", "1012 LG", "Amsterdam", "NL")),
  ),
  en(
    "plz chnge the shiping adress for 3004 to Grand-Place 1, 1000 Brussels, Belgium",
    move("3004", at("Grand-Place 1", "1000", "Brussels", "BE")),
  ),
  en(
    [
      "I'd like my parcel delivered to a different address",
      "order 3004",
      "Avenue des Champs-Élysées 10, 75008 Paris, France",
    ],
    move("3004", at("Avenue des Champs-Élysées 10", "75008", "Paris", "FR")),
  ),
  en(
    [
      "Has 3004 shipped yet?",
      "good, then send it to Schönbrunner Straße 8, 1050 Wien, Austria instead",
    ],
    move("3004", at("Schönbrunner Straße 8", "1050", "Wien", "AT")),
  ),
  en("Could you tell me whether changing the address of 3004 is still possible?", status("3004")),
  en("Change the address of order 3004 to 5 Main Street, Dublin D02 XY45, Ireland", {
    class: "refuse",
  }),
  en(
    "Where's 7718? Also please update the delivery address of 3004 to Plac Zamkowy 4, 00-277 Warszawa, Poland",
    {
      class: "answer_and_propose",
      orderIds: ["7718"],
      write: {
        class: "change_delivery_address",
        args: { orderId: "3004", address: at("Plac Zamkowy 4", "00-277", "Warszawa", "PL") },
      },
    },
  ),
  en(["Change the delivery address of 3004", "actually never mind, keep it as it is"], {
    class: "no_tool_reply",
  }),
  en(
    "Please change the delivery address of order 7718 to Gran Vía 1, 28013 Madrid, Spain",
    move("7718", at("Gran Vía 1", "28013", "Madrid", "ES")),
  ),
  en(
    [
      "What's the status of 8041?",
      "and for 3004, the new address is Via Dante 2, 20121 Milano, Italy",
    ],
    move("3004", at("Via Dante 2", "20121", "Milano", "IT")),
  ),
  ru(
    "Привет! Заказ 3004 нужно доставить на Кайзерштрассе 12, 60311 Франкфурт, Германия",
    move("3004", at("Кайзерштрассе 12", "60311", "Франкфурт", "DE")),
  ),
  ru(
    "пожалуйста измените адресс доставки заказа 3004 на Дамрак 1, 1012 LG Амстердам, Нидерланды",
    move("3004", at("Дамрак 1", "1012 LG", "Амстердам", "NL")),
  ),
  ru(
    ["Хочу поменять адрес", "номер заказа 3004", "Гран Виа 1, 28013 Мадрид, Испания"],
    move("3004", at("Гран Виа 1", "28013", "Мадрид", "ES")),
  ),
  ru(
    [
      "Заказ 3004 уже отправлен?",
      "Тогда отправьте его лучше на Торштрассе 5, 10119 Берлин, Германия",
    ],
    move("3004", at("Торштрассе 5", "10119", "Берлин", "DE")),
  ),
  ru("Если сменить адрес доставки заказа 3004, это будет стоить денег?", status("3004")),
  ru("Измените адрес доставки заказа 3004 на 5 Main Street, Dublin D02 XY45, Ирландия", {
    class: "refuse",
  }),
  ru("Где заказ 8041? И ещё поменяйте адрес заказа 3004 на Виа Данте 2, 20121 Милан, Италия", {
    class: "answer_and_propose",
    orderIds: ["8041"],
    write: {
      class: "change_delivery_address",
      args: { orderId: "3004", address: at("Виа Данте 2", "20121", "Милан", "IT") },
    },
  }),
  ru(["Поменяйте адрес доставки заказа 3004", "хотя нет, оставьте старый"], {
    class: "no_tool_reply",
  }),
  ru(
    "Смените адрес доставки заказа 8041 на Гран Виа 1, 28013 Мадрид, Испания",
    move("8041", at("Гран Виа 1", "28013", "Мадрид", "ES")),
  ),
  ru(
    "Измените, пожалуйста, адрес доставки заказа 3004 на Иван Петров, Замковая площадь 4, 00-277 Варшава, Польша",
    move("3004", { ...at("Замковая площадь 4", "00-277", "Варшава", "PL"), name: "Иван Петров" }),
  ),
];
