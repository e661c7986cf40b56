/**
 * The held-out set: twenty address and follow-up requests, ten in English and ten in Russian,
 * written before the offline model was tuned on them and never copied into the utterance table.
 * `npm run eval -- --table=heldout` runs them alone, through the same pipeline and judge; the
 * figure says how well the model does on phrasings nobody taught it. Never bend a row here to
 * make the model pass: a fix goes into the model's tables, and a row that fails stays.
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
const en = (say: string | string[], expect: Row["expect"]): Row => ({ say, lang: "en", expect });
const ru = (say: string | string[], expect: Row["expect"]): Row => ({ say, lang: "ru", expect });

const FRANKFURT = at("Kaiserstraße 12", "60311", "Frankfurt", "DE");
const MADRID = at("Calle Mayor 5", "28013", "Madrid", "ES");
const BERLIN_RU = at("Торштрассе 1", "10119", "Берлин", "DE");

export const HELDOUT: Row[] = [
  en(
    "I moved, can you send order 3004 to Kaiserstraße 12, 60311 Frankfurt, Germany instead?",
    move("3004", FRANKFURT),
  ),
  en(
    ["Where is 3004?", "ok, please deliver it to Calle Mayor 5, 28013 Madrid, Spain"],
    move("3004", MADRID),
  ),
  en(
    "new address for order 3004: Prinsengracht 263, 1016 GV Amsterdam, Netherlands",
    move("3004", at("Prinsengracht 263", "1016 GV", "Amsterdam", "NL")),
  ),
  en(
    "Can you update the delivery adress on 3004? It should go to Via Roma 10, 00184 Roma, Italy",
    move("3004", at("Via Roma 10", "00184", "Roma", "IT")),
  ),
  en(
    [
      "I need to change the shipping address of my order",
      "3004",
      "Marszałkowska 1, 00-624 Warszawa, Poland",
    ],
    move("3004", at("Marszałkowska 1", "00-624", "Warszawa", "PL")),
  ),
  en(
    "Please change the address of order 3004 to Maria Schmidt, Hauptstraße 5, 1010 Wien, Austria",
    move("3004", { ...at("Hauptstraße 5", "1010", "Wien", "AT"), name: "Maria Schmidt" }),
  ),
  en(
    "change delivery address of 8041 to Kaiserstraße 12, 60311 Frankfurt, Germany",
    move("8041", FRANKFURT),
  ),
  en("would it be possible to redirect order 3004 to another address?", {
    class: "get_order_status",
    orderIds: ["3004"],
  }),
  en(
    ["Change the delivery address for 3004", "Sorry, it's Rue Neuve 1, 1000 Bruxelles, Belgium"],
    move("3004", at("Rue Neuve 1", "1000", "Bruxelles", "BE")),
  ),
  en(["Has 7718 arrived?", "it arrived broken, I want to return it"], {
    class: "create_return_request",
    args: { orderId: "7718", reason: "damaged", comment: null },
  }),
  ru(
    "Пожалуйста, доставьте заказ 3004 по адресу Торштрассе 1, 10119 Берлин, Германия",
    move("3004", BERLIN_RU),
  ),
  ru(
    ["Где заказ 3004?", "Поменяйте адрес на Калле Майор 5, 28013 Мадрид, Испания"],
    move("3004", at("Калле Майор 5", "28013", "Мадрид", "ES")),
  ),
  ru(
    "Новый адрес для заказа 3004: ул. Маршалковская 1, 00-624 Варшава, Польша",
    move("3004", at("ул. Маршалковская 1", "00-624", "Варшава", "PL")),
  ),
  ru(
    ["Хочу изменить адрес доставки", "заказ 3004", "Торштрассе 1, 10119 Берлин, Германия"],
    move("3004", BERLIN_RU),
  ),
  ru(
    "Измените адрес доставки заказа 3004 на Мария Шмидт, Хауптштрассе 5, 1010 Вена, Австрия",
    move("3004", { ...at("Хауптштрассе 5", "1010", "Вена", "AT"), name: "Мария Шмидт" }),
  ),
  ru(
    "Смените адрес доставки заказа 8041 на Торштрассе 1, 10119 Берлин, Германия",
    move("8041", BERLIN_RU),
  ),
  ru("А если я поменяю адрес заказа 3004, он придёт позже?", {
    class: "get_order_status",
    orderIds: ["3004"],
  }),
  ru("Не меняйте адрес заказа 3004, я ошибся", { class: "no_tool_reply" }),
  ru("Доставьте заказ 3004 в Лондон: 221B Baker Street, London NW1 6XE, Великобритания", {
    class: "refuse",
  }),
  ru(["Что с заказом 3004?", "Отмените его, я передумал"], {
    class: "cancel_order",
    args: { orderId: "3004", reason: "changed_mind", comment: null },
  }),
];
