/**
 * The store: where a customer's orders live, in our own domain terms. Two backends implement it
 * (STORE_BACKEND): `builtin`, our own tables and demo seed, and `medusa`, a Medusa v2 store's
 * Admin API. The tools, the orders page and the relay ask only this; docs/stores.md says what a
 * backend must do, for the next one (Shopify).
 */
import type { OrderWithItems } from "@/db/queries/orders";

/**
 * Who is asking: our account, and the store customer it is linked to (null: none). A guest
 * (a shopper without an account) has no store customer; its orders are the ones it verified by
 * e-mail, still within their verification (`guestOrders`).
 */
export type StoreCustomer = {
  userId: string;
  storeCustomerId: string | null;
  guestOrders?: readonly { orderId: string; email: string }[];
};

/**
 * An order as our policy code reads it (the built-in row's shape, so the return window, "not
 * shipped yet" and the shipping countries are decided by the same code for every store), plus,
 * for an order at an external store, its own reference and when it last changed there.
 */
export type StoreOrder = OrderWithItems & {
  store: {
    backend: string;
    ref: string;
    updatedAt: string;
    /**
     * The operation ids of the returns the store has requested (or received) for this order that
     * carry ours in their metadata, i.e. the returns requested through us that the store really
     * has. lib/store/index.ts turns them into the order's `returnRequest` from our records.
     */
    returnOperationIds: string[];
  } | null;
};

/** A delivery address in our terms (lib/orders/address.ts's stored shape). */
export type StoreAddress = {
  name: string;
  line1: string;
  line2: string | null;
  postalCode: string;
  city: string;
  country: string;
};

/** A write the relay carries out at the store, under our operation id. */
export type StoreCancel = {
  storeOrderRef: string;
  operationId: string;
  /** The order's updated_at when the plan was made: if it moved, nothing is sent. */
  expectedUpdatedAt: string;
};

/**
 * Request a return at the store, under our operation id: of the lines and units named (by the
 * store's own item id), or of the whole order when none are (a return stored before returns
 * named their lines).
 */
export type StoreReturn = StoreCancel & { items?: { lineId: string; quantity: number }[] };

/**
 * Staff received the parcel of a return made under `operationId`: receive it at the store, then
 * refund `amountMinor` of the order's captured payment there.
 */
export type StoreReceipt = {
  storeOrderRef: string;
  operationId: string;
  amountMinor: number;
  currency: string;
};

/**
 * Exchange `quantity` units of a line for another variant of its product at the store, under our
 * operation id; then refund `refundMinor` (a cheaper variant's difference, 0: none) there.
 */
export type StoreExchange = StoreCancel & {
  /** exchange: after delivery (the line comes back); swap: before it ships (an order edit). */
  kind: "swap" | "exchange";
  lineId: string;
  quantity: number;
  toVariantId: string;
  refundMinor: number;
  currency: string;
};

/** A product's variant at the store, as an exchange chooses among them. */
export type StoreVariant = {
  id: string;
  productId: string;
  options: Record<string, string>;
  position: number;
  priceMinor: number;
  currency: string;
  /** Units available (the store's stock less what its orders hold). */
  stock: number;
};

/** Change the order's shipping address at the store, under our operation id. */
export type StoreAddressChange = StoreCancel & { address: StoreAddress };

/**
 * A write's refusal when the store's order moved between the plan and the confirm: nothing was
 * sent; the customer's card says so and the relay frees the order for a fresh proposal.
 */
export const ORDER_CHANGED_AT_STORE = "order_changed_at_store";

/**
 * A cancel's refusal when the order is cancelled at the store and the cancel was not ours (a
 * merchant's, before or after our metadata write): we cancelled and refunded nothing, and the
 * customer's card must not say we did.
 */
export const ALREADY_CANCELLED_AT_STORE = "already_cancelled_at_store";

/** The same outcomes as a payment provider's (lib/effects/providers/types.ts), by shape. */
export type StoreWriteOutcome =
  | { kind: "succeeded"; providerRef: string }
  | { kind: "definite"; code: string }
  | { kind: "indeterminate"; code: string };

export type StoreLookupOutcome =
  | { kind: "found"; providerRef: string }
  | { kind: "absent" }
  | { kind: "definite"; code: string }
  | { kind: "indeterminate"; code: string };

export type Store = {
  backend: "builtin" | "medusa";
  /** One of the customer's orders by the number they name it by; another customer's is null. */
  findOrder(customer: StoreCustomer, orderId: string): Promise<StoreOrder | null>;
  /** The customer's orders, newest first. */
  listOrders(customer: StoreCustomer): Promise<StoreOrder[]>;
  /**
   * The order by its number, when it was placed with this e-mail (normalised: trim, NFKC, lower
   * case), whoever placed it; else null. What a shopper without an account verifies an order
   * by at an external store (the built-in store answers from its own table, db/queries/guests.ts).
   */
  findOrderByEmail?(
    customer: StoreCustomer,
    orderId: string,
    email: string,
  ): Promise<StoreOrder | null>;
  /**
   * Cancel at the store, recording our operation id there. The built-in store cancels inside the
   * confirm's own transaction (cancel_order's commit), so only external stores implement these.
   */
  cancel?(op: StoreCancel): Promise<StoreWriteOutcome>;
  /** Whether the cancel of this operation happened at the store (after an unknown outcome). */
  findCancel?(op: StoreCancel): Promise<StoreLookupOutcome>;
  /** Request a return of the order's items; `providerRef` is the store's return id. */
  requestReturn?(op: StoreReturn): Promise<StoreWriteOutcome>;
  findReturn?(op: StoreReturn): Promise<StoreLookupOutcome>;
  /** Receive the return and refund its amount at the store; `providerRef` is the refund's id. */
  receiveReturn?(op: StoreReceipt): Promise<StoreWriteOutcome>;
  findReceipt?(op: StoreReceipt): Promise<StoreLookupOutcome>;
  /** A product's name and its variants in size order, with their price and stock; null: none. */
  product?(
    productId: string,
    currency: string,
  ): Promise<{ id: string; name: string; variants: StoreVariant[] } | null>;
  /** Exchange a line for another variant; `providerRef` is the store's exchange id. */
  exchangeItems?(op: StoreExchange): Promise<StoreWriteOutcome>;
  findExchange?(op: StoreExchange): Promise<StoreLookupOutcome>;
  /** Change the shipping address; `providerRef` is the store's order id. */
  changeAddress?(op: StoreAddressChange): Promise<StoreWriteOutcome>;
  findAddressChange?(op: StoreAddressChange): Promise<StoreLookupOutcome>;
};

/**
 * The store did not answer (connection refused, timeout, 5xx): a read tool tells the customer
 * `store_unreachable`, never an invented status.
 */
export class StoreUnreachableError extends Error {
  constructor(readonly reason: string) {
    super(`the store did not answer (${reason})`);
    this.name = "StoreUnreachableError";
  }
}
