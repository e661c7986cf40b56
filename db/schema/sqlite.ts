/**
 * The whole database, SQLite dialect (db/schema/pg.ts is the same tables for PostgreSQL; a type
 * test holds their row types equal). better-auth's four tables first (field names are the ones its drizzle
 * adapter expects), then the store, the chat and the safety core. Times are stored as epoch
 * milliseconds (`timestamp_ms`) so ordering and range filters are plain integer comparisons.
 */
import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import {
  ACTION_STATUSES,
  AUDIT_STATUSES,
  type AuditStatus,
  CANCEL_REASONS,
  EFFECT_CANARY_STATUSES,
  EFFECT_STATUSES,
  HANDOFF_STATUSES,
  LOCALES,
  MESSAGE_ROLES,
  MODEL_CALL_KINDS,
  ORDER_STATUSES,
  RETURN_REASONS,
} from "../constants";

const ms = (name: string) => integer(name, { mode: "timestamp_ms" });
const createdAt = () =>
  ms("created_at").notNull().default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);

const counter = (name: string) => integer(name).notNull().default(0);
/** One counter column per audit status, named after it (a new status is a new column). */
const statusCounters = () =>
  Object.fromEntries(AUDIT_STATUSES.map((s) => [s, counter(s)])) as {
    [S in AuditStatus]: ReturnType<typeof counter>;
  };

// ---------------------------------------------------------------- better-auth

export const user = sqliteTable(
  "user",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
    image: text("image"),
    role: text("role", { enum: ["customer", "staff"] })
      .notNull()
      .default("customer"),
    // The interface language the user picked in the header; null until they pick one, and then
    // the browser's cookie or Accept-Language decides (lib/i18n/request.ts).
    locale: text("locale", { enum: LOCALES }),
    // The store's own id for this customer (the `sub` of its signed token, docs/embed.md): the one
    // thing that links a store's customer to this account. Null for accounts made here.
    storeCustomerId: text("store_customer_id").unique(),
    // A visitor of a store's page who is not signed in there (the embedded chat without a token):
    // the return policy only, no order tools and no write tools (lib/chat/turn-tools.ts).
    guest: integer("guest", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ms("updated_at").notNull(),
  },
  // One account per email however it is written: the app stores emails normalised (trim, NFKC,
  // lower case: lib/auth/account-throttle.ts normalizeEmail), and this index refuses a second
  // row whose email differs only in case or surrounding space, whoever writes it.
  (t) => [uniqueIndex("user_email_normalized_unique").on(sql`lower(trim(${t.email}))`)],
);

export const session = sqliteTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: ms("expires_at").notNull(),
    token: text("token").notNull().unique(),
    createdAt: createdAt(),
    updatedAt: ms("updated_at").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    // The store page's origin for a session the store vouched for (POST /api/embed/session), so
    // that the chats it starts record where they were embedded; null for our own sign-in.
    embedOrigin: text("embed_origin"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
  },
  (t) => [index("session_user_idx").on(t.userId)],
);

export const account = sqliteTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: ms("access_token_expires_at"),
    refreshTokenExpiresAt: ms("refresh_token_expires_at"),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: ms("updated_at").notNull(),
  },
  (t) => [index("account_user_idx").on(t.userId)],
);

export const verification = sqliteTable("verification", {
  id: text("id").primaryKey(),
  identifier: text("identifier").notNull(),
  value: text("value").notNull(),
  expiresAt: ms("expires_at").notNull(),
  createdAt: createdAt(),
  updatedAt: ms("updated_at").notNull(),
});

/** better-auth's sign-in limiter (rateLimit.storage "database"), shared by every instance. */
export const rateLimit = sqliteTable("rate_limit", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  /** Epoch ms (better-auth writes a number here, not a Date). */
  lastRequest: integer("last_request").notNull(),
});

/**
 * Our sliding-window limits (chat messages per user, failed sign-ins per account): one row per
 * key holding the times of the hits still inside the window, so every instance counts the same.
 */
export const rateWindows = sqliteTable("rate_windows", {
  key: text("key").primaryKey(),
  hits: text("hits", { mode: "json" }).$type<number[]>().notNull(),
  /** When every hit has left the window: the sweep deletes the row after this. */
  until: ms("until").notNull(),
});

/**
 * Store tokens already used to start a session (their `jti`): each works once. Kept until the
 * token would have expired anyway (then a replay is refused by its `exp`), and swept after.
 */
export const embedTokenUses = sqliteTable("embed_token_uses", {
  jti: text("jti").primaryKey(),
  /** The token's own `exp` (plus the clock skew allowed): after this the row can go. */
  expiresAt: ms("expires_at").notNull(),
});

/**
 * A one-time code a guest session asked for, to prove the mailbox of an order placed without an
 * account; once confirmed, the same row is the guest's access to that one order until
 * `verified_until`. Written on every request, whether or not the order and the e-mail matched
 * (`matched` false: no code was sent and none can be confirmed), so both answers cost the same.
 * Only the code's keyed hash is kept. Deleted with the guest's account.
 */
export const guestVerifications = sqliteTable(
  "guest_verifications",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** The order number as the visitor typed it (it may name no order at all). */
    orderId: text("order_id").notNull(),
    /** The e-mail as the visitor typed it, normalised (trim, NFKC, lower-case). */
    email: text("email").notNull(),
    /** HMAC-SHA256 of the code, keyed by the auth secret and bound to this row, session and order. */
    codeHash: text("code_hash").notNull(),
    matched: integer("matched", { mode: "boolean" }).notNull(),
    /** Confirm attempts made against this code: the third wrong one kills it. */
    attempts: integer("attempts").notNull().default(0),
    createdAt: ms("created_at").notNull(),
    expiresAt: ms("expires_at").notNull(),
    usedAt: ms("used_at"),
    /** Set by a correct code: the guest may act on this order until then. */
    verifiedUntil: ms("verified_until"),
  },
  (t) => [index("guest_verifications_user_order_idx").on(t.userId, t.orderId, t.createdAt)],
);

// ---------------------------------------------------------------- store

export const orders = sqliteTable(
  "orders",
  {
    /** Four digits, as customers quote them ("order 7718"). */
    id: text("id").primaryKey(),
    /**
     * The account that placed it. An order placed at checkout without an account belongs to the
     * store's checkout placeholder (GUEST_CHECKOUT_USER_ID, an account nobody can sign in to), so
     * the column stays NOT NULL: making it nullable means rebuilding this table on SQLite, which
     * inside the migrator's transaction would cascade-delete every order's lines.
     */
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /**
     * The e-mail a guest order was placed with (trimmed, NFKC, lower-case): what a shopper without
     * an account verifies it by. Null on an account's order (its account's address is the one).
     */
    email: text("email"),
    status: text("status", { enum: ORDER_STATUSES }).notNull(),
    placedAt: ms("placed_at").notNull(),
    shippedAt: ms("shipped_at"),
    deliveredAt: ms("delivered_at"),
    /** Estimated delivery for orders still on their way. */
    etaAt: ms("eta_at"),
    totalMinor: integer("total_minor").notNull(),
    currency: text("currency").notNull(),
    paymentMethod: text("payment_method").notNull(),
    /** The payment provider's id of the charge (a Stripe PaymentIntent, `pi_…`): what a refund refers to. */
    paymentRef: text("payment_ref"),
    /** Written by the customer at checkout: untrusted text that reaches the model as data. */
    deliveryNote: text("delivery_note"),
    /**
     * Where the order goes (null on orders that predate addresses). Changed only by
     * change_delivery_address, while the order is processing.
     */
    deliveryName: text("delivery_name"),
    deliveryLine1: text("delivery_line1"),
    deliveryLine2: text("delivery_line2"),
    deliveryPostalCode: text("delivery_postal_code"),
    /** ISO 3166-1 alpha-2. */
    deliveryCountry: text("delivery_country"),
    deliveryCity: text("delivery_city"),
    /** Bumped by every change; the compare-and-set target of a confirm. */
    version: integer("version").notNull().default(1),
    updatedAt: ms("updated_at").notNull(),
  },
  (t) => [index("orders_user_idx").on(t.userId, t.placedAt)],
);

/**
 * The built-in store's catalogue: a product (the T-shirt) has options (size, colour) and
 * variants (the T-shirt in M); an exchange goes from one variant of a product to another.
 */
export const products = sqliteTable("products", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** The option names its variants differ by, in order, e.g. ["size"] or ["size", "colour"]. */
  options: text("options", { mode: "json" }).$type<string[]>().notNull(),
  /** Sold as final: never returned nor exchanged (the return policy's per-line rule). */
  finalSale: integer("final_sale", { mode: "boolean" }).notNull().default(false),
});

export const productVariants = sqliteTable(
  "product_variants",
  {
    id: text("id").primaryKey(),
    productId: text("product_id")
      .notNull()
      .references(() => products.id),
    /** The variant's value of each of its product's options, e.g. {"size": "M"}. */
    options: text("options", { mode: "json" }).$type<Record<string, string>>().notNull(),
    /** Its place among the product's variants (S < M < L): what "a size bigger" means. */
    position: integer("position").notNull(),
    priceMinor: integer("price_minor").notNull(),
    currency: text("currency").notNull(),
    /** Units in stock; an exchange reserves from it at confirm and it never goes below zero. */
    stock: integer("stock").notNull(),
    /** Bumped by every change of the stock: the compare-and-set of a reservation. */
    stockVersion: integer("stock_version").notNull().default(1),
  },
  (t) => [index("product_variants_product_idx").on(t.productId, t.position)],
);

export const orderItems = sqliteTable(
  "order_items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    quantity: integer("quantity").notNull(),
    unitPriceMinor: integer("unit_price_minor").notNull(),
    /** The variant bought (null on lines from before the catalogue: those cannot be exchanged). */
    variantId: text("variant_id").references(() => productVariants.id),
  },
  (t) => [index("order_items_order_idx").on(t.orderId)],
);

export const returnRequests = sqliteTable(
  "return_requests",
  {
    id: text("id").primaryKey(),
    /** UNIQUE: one return per order is enforced by the database, not only by code. */
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id),
    userId: text("user_id")
      .notNull()
      .references(() => user.id),
    reason: text("reason", { enum: RETURN_REASONS }).notNull(),
    comment: text("comment"),
    refundAmountMinor: integer("refund_amount_minor").notNull(),
    refundCurrency: text("refund_currency").notNull(),
    refundDestination: text("refund_destination").notNull(),
    /** The pending action whose confirm created it. */
    actionId: text("action_id"),
    /** Created before the effect; doubles as the idempotency key. */
    operationId: text("operation_id").notNull().unique(),
    createdAt: createdAt(),
    /** When staff marked the parcel received (POST /api/staff/returns/{id}/receive), and who. */
    receivedAt: ms("received_at"),
    receivedBy: text("received_by"),
  },
  (t) => [
    uniqueIndex("return_requests_order_uq").on(t.orderId),
    index("return_requests_user_idx").on(t.userId),
  ],
);

/** The lines a return request gives back: which line of the order, how many, at what price. */
export const returnRequestLines = sqliteTable(
  "return_request_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    requestId: text("request_id")
      .notNull()
      .references(() => returnRequests.id, { onDelete: "cascade" }),
    orderItemId: integer("order_item_id")
      .notNull()
      .references(() => orderItems.id),
    name: text("name").notNull(),
    quantity: integer("quantity").notNull(),
    unitPriceMinor: integer("unit_price_minor").notNull(),
  },
  (t) => [
    uniqueIndex("return_request_lines_uq").on(t.requestId, t.orderItemId),
    index("return_request_lines_item_idx").on(t.orderItemId),
  ],
);

export const orderCancellations = sqliteTable(
  "order_cancellations",
  {
    id: text("id").primaryKey(),
    /** UNIQUE: one cancellation per order, enforced by the database. */
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id),
    userId: text("user_id")
      .notNull()
      .references(() => user.id),
    reason: text("reason", { enum: CANCEL_REASONS }).notNull(),
    comment: text("comment"),
    refundAmountMinor: integer("refund_amount_minor").notNull(),
    refundCurrency: text("refund_currency").notNull(),
    refundDestination: text("refund_destination").notNull(),
    /** The pending action whose confirm cancelled the order (null for the demo seed's). */
    actionId: text("action_id"),
    /** Committed with the effect; crash recovery finds the effect by it. */
    operationId: text("operation_id").notNull().unique(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("order_cancellations_order_uq").on(t.orderId),
    index("order_cancellations_user_idx").on(t.userId),
  ],
);

/** What delivery_address_changes stores of an address (lib/orders/address.ts's shape). */
/** An exchange at the store, by the store's own ids of the line and the variants. */
type StoredExchange = {
  kind: "swap" | "exchange";
  lineId: string;
  quantity: number;
  fromVariantId: string;
  toVariantId: string;
};

type StoredAddress = {
  name: string;
  line1: string;
  line2: string | null;
  postalCode: string;
  city: string;
  country: string;
};

/**
 * A write carried out at the connected store (STORE_BACKEND=medusa, docs/stores.md), whose order
 * lives there and not in `orders`: one row per order and kind (the business key), written by the
 * confirm with the action's id as the operation id, which the store's metadata then carries. The
 * outbox effect of the same action does the store's request (lib/store/).
 */
export const storeOperations = sqliteTable(
  "store_operations",
  {
    id: text("id").primaryKey(),
    /**
     * UNIQUE: `<backend>:<store order id>:<kind>`: one cancellation and one return per order at
     * the store; an address change adds its action id (one per change).
     */
    businessKey: text("business_key").notNull().unique(),
    backend: text("backend").notNull(),
    kind: text("kind", { enum: ["cancel", "return", "address", "exchange"] }).notNull(),
    /** The store's own id of the order (Medusa's `order_…`). */
    storeOrderRef: text("store_order_ref").notNull(),
    /** The number the customer names the order by (Medusa's display id). */
    orderId: text("order_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id),
    /** Why (a cancellation's or a return's reason); null for an address change. */
    reason: text("reason", { enum: [...CANCEL_REASONS, ...RETURN_REASONS] }),
    comment: text("comment"),
    refundAmountMinor: integer("refund_amount_minor").notNull(),
    refundCurrency: text("refund_currency").notNull(),
    refundDestination: text("refund_destination").notNull(),
    /** An address change's new address (null for the other kinds). */
    toAddress: text("to_address", { mode: "json" }).$type<StoredAddress>(),
    /** An exchange's line, units and the variants it goes from and to (null for the others). */
    exchange: text("exchange", { mode: "json" }).$type<StoredExchange>(),
    /** A return: when staff marked its parcel received, and who (null until then). */
    receivedAt: ms("received_at"),
    receivedBy: text("received_by"),
    actionId: text("action_id"),
    operationId: text("operation_id").notNull().unique(),
    createdAt: createdAt(),
  },
  (t) => [index("store_operations_user_idx").on(t.userId, t.orderId)],
);

/** change_delivery_address's record: one row per change of an order's delivery address. */
export const deliveryAddressChanges = sqliteTable(
  "delivery_address_changes",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id),
    userId: text("user_id")
      .notNull()
      .references(() => user.id),
    /** The address before the change (null: none on record). */
    fromAddress: text("from_address", { mode: "json" }).$type<StoredAddress | null>(),
    toAddress: text("to_address", { mode: "json" }).$type<StoredAddress>().notNull(),
    /** The pending action whose confirm made the change. */
    actionId: text("action_id"),
    /** UNIQUE: one change per action; crash recovery finds the change by it. */
    operationId: text("operation_id").notNull().unique(),
    createdAt: createdAt(),
  },
  (t) => [index("delivery_address_changes_order_idx").on(t.orderId, t.createdAt)],
);

/**
 * exchange_items' table: a line (or some of its units) exchanged for another variant of the
 * same product. Before shipping it is a swap (nothing comes back); after delivery the old units
 * are expected back like a return. One row per action (its operation id is unique).
 */
export const itemExchanges = sqliteTable(
  "item_exchanges",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id),
    userId: text("user_id")
      .notNull()
      .references(() => user.id),
    orderItemId: integer("order_item_id")
      .notNull()
      .references(() => orderItems.id),
    /** "swap": changed before it shipped; "exchange": sent after delivery, the old one comes back. */
    kind: text("kind", { enum: ["swap", "exchange"] }).notNull(),
    quantity: integer("quantity").notNull(),
    fromVariantId: text("from_variant_id")
      .notNull()
      .references(() => productVariants.id),
    toVariantId: text("to_variant_id")
      .notNull()
      .references(() => productVariants.id),
    /** What goes back to the customer: the price difference of a cheaper variant (0: none). */
    refundAmountMinor: integer("refund_amount_minor").notNull(),
    refundCurrency: text("refund_currency").notNull(),
    refundDestination: text("refund_destination").notNull(),
    actionId: text("action_id"),
    /** UNIQUE: one exchange per action; crash recovery finds it by this. */
    operationId: text("operation_id").notNull().unique(),
    createdAt: createdAt(),
  },
  (t) => [
    index("item_exchanges_order_idx").on(t.orderId),
    index("item_exchanges_item_idx").on(t.orderItemId),
  ],
);

// ---------------------------------------------------------------- chat

export const chats = sqliteTable(
  "chats",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    title: text("title"),
    /** Older turns folded into a summary, given to the model inside <conversation_summary>. */
    summary: text("summary"),
    /** How many messages (by seq) the summary covers. */
    summarizedThrough: integer("summarized_through").notNull().default(0),
    /**
     * Set while a turn runs (a lease, so a crash frees it): a second message to the same chat
     * cannot start a parallel turn that slips past the pending-action check.
     */
    turnLockedUntil: ms("turn_locked_until"),
    /** Who holds the turn lease: only that turn may renew or release it. */
    turnLockToken: text("turn_lock_token"),
    /** Staff triage (structured summary), JSON. */
    triage: text("triage", { mode: "json" }),
    /** The store page this chat was embedded on (docs/embed.md), for staff; null on our own site. */
    embedOrigin: text("embed_origin"),
    createdAt: createdAt(),
    updatedAt: ms("updated_at").notNull(),
  },
  (t) => [index("chats_user_created_idx").on(t.userId, t.createdAt)],
);

export const messages = sqliteTable(
  "messages",
  {
    id: text("id").primaryKey(),
    chatId: text("chat_id")
      .notNull()
      .references(() => chats.id, { onDelete: "cascade" }),
    /** Position in the chat; UNIQUE with chat_id so two writers cannot interleave a turn. */
    seq: integer("seq").notNull(),
    /** `staff`: a support person's reply while the chat is handed off (lib/chat/handoff). */
    role: text("role", { enum: MESSAGE_ROLES }).notNull(),
    /** AI SDK UIMessage parts, JSON. */
    parts: text("parts", { mode: "json" }).notNull(),
    model: text("model"),
    promptVersion: text("prompt_version"),
    usage: text("usage", { mode: "json" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("messages_chat_seq_uq").on(t.chatId, t.seq)],
);

/**
 * A person taking over a chat (docs/api.md, "Handoff"): one row per request for a human. While
 * `status` is `waiting` or `active` the assistant does not answer in the chat; `released` hands it
 * back. At most one open row per chat (the partial UNIQUE index), so two requests cannot both
 * open one; replies and release are conditional updates on this row.
 */
export const handoffs = sqliteTable(
  "handoffs",
  {
    id: text("id").primaryKey(),
    chatId: text("chat_id")
      .notNull()
      .references(() => chats.id, { onDelete: "cascade" }),
    /** The customer who asked. */
    userId: text("user_id").notNull(),
    status: text("status", { enum: HANDOFF_STATUSES }).notNull().default("waiting"),
    requestedAt: ms("requested_at").notNull(),
    /** The first staff reply: the metrics' time to first reply is this minus requestedAt. */
    firstReplyAt: ms("first_reply_at"),
    /** The staff member who replied last (the name the customer sees). */
    staffId: text("staff_id"),
    releasedAt: ms("released_at"),
    releasedBy: text("released_by"),
  },
  (t) => [
    uniqueIndex("handoffs_open_chat_uq").on(t.chatId).where(sql`status <> 'released'`),
    index("handoffs_status_requested_idx").on(t.status, t.requestedAt),
    index("handoffs_requested_idx").on(t.requestedAt),
  ],
);

// ---------------------------------------------------------------- safety core

export { ACTION_STATUSES, type ActionStatus } from "../constants";

export const pendingActions = sqliteTable(
  "pending_actions",
  {
    id: text("id").primaryKey(),
    chatId: text("chat_id")
      .notNull()
      .references(() => chats.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    tool: text("tool").notNull(),
    toolCallId: text("tool_call_id"),
    /** Normalized, validated arguments: exactly what Confirm will execute. */
    arguments: text("arguments", { mode: "json" }).notNull(),
    /** SHA-256 of the canonical JSON of {tool, arguments, userId}. */
    payloadHash: text("payload_hash").notNull(),
    plan: text("plan", { mode: "json" }).notNull(),
    /** The record a confirm compare-and-sets against. */
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    targetVersion: integer("target_version").notNull(),
    status: text("status", { enum: ACTION_STATUSES }).notNull().default("pending"),
    result: text("result", { mode: "json" }),
    errorCode: text("error_code"),
    promptVersion: text("prompt_version"),
    model: text("model"),
    createdAt: createdAt(),
    expiresAt: ms("expires_at").notNull(),
    decidedAt: ms("decided_at"),
    decidedBy: text("decided_by"),
    /**
     * Decided with the plan (lib/actions/approval.ts): a refund above APPROVAL_THRESHOLD_MINOR
     * waits in `awaiting_approval` for staff after the customer's confirm. Stored, so the card
     * that said so and the confirm that acts on it agree whatever the setting is later.
     */
    requiresApproval: integer("requires_approval", { mode: "boolean" }).notNull().default(false),
    /** The action this one revised (the customer edited it), and how many edits the chain has. */
    revisionOf: text("revision_of"),
    revision: integer("revision").notNull().default(0),
    /** When the customer confirmed an action that then waited for staff approval. */
    confirmedAt: ms("confirmed_at"),
    /** The staff member who approved (and so executed) or rejected it. */
    approvedBy: text("approved_by"),
    /** The staff member's reason for a rejection. */
    rejectReason: text("reject_reason"),
  },
  (t) => [
    index("pending_actions_chat_status_idx").on(t.chatId, t.status),
    index("pending_actions_user_status_idx").on(t.userId, t.status),
    index("pending_actions_status_expires_idx").on(t.status, t.expiresAt),
    index("pending_actions_target_status_idx").on(t.targetId, t.status),
  ],
);

export const auditEvents = sqliteTable(
  "audit_events",
  {
    /** Append order; breaks ties between events with the same `at`. */
    id: integer("id").primaryKey({ autoIncrement: true }),
    /**
     * When it happened. Newest first is `ORDER BY at DESC, id DESC` and the keyset cursor is
     * (at, id): writers may pass `at` (expiry at its deadline, tests), so id order is not time order.
     */
    at: ms("at").notNull(),
    userId: text("user_id"),
    chatId: text("chat_id"),
    actionId: text("action_id"),
    toolCallId: text("tool_call_id"),
    /** For an unregistered tool: the name the model used. */
    tool: text("tool").notNull(),
    access: text("access", { enum: ["read", "write"] }),
    status: text("status", { enum: AUDIT_STATUSES }).notNull(),
    /** Who decided, when it was not the customer: the staff member who approved or rejected. */
    actorId: text("actor_id"),
    errorCode: text("error_code"),
    durationMs: integer("duration_ms"),
    arguments: text("arguments", { mode: "json" }),
    result: text("result", { mode: "json" }),
    promptVersion: text("prompt_version"),
    model: text("model"),
    /** `canary` when the candidate profile served the chat (docs/operations.md); else null. */
    profile: text("profile"),
  },
  (t) => [
    // Every index ends in `at` (and SQLite appends the rowid), so each filter reads its rows
    // already in (at, id) order: a page and a time range are one index range, never a sort.
    // (status, at) also lets the chart count a range from index entries alone.
    index("audit_at_idx").on(t.at),
    index("audit_status_at_idx").on(t.status, t.at),
    index("audit_tool_at_idx").on(t.tool, t.at),
    index("audit_chat_at_idx").on(t.chatId, t.at),
    index("audit_user_at_idx").on(t.userId, t.at),
    // One action's life in the order it was written.
    index("audit_action_idx").on(t.actionId, t.id),
  ],
);

// ---------------------------------------------------------------- external effects

/**
 * The effects outbox: one row per external effect a confirmed action requires (a refund at the
 * payment provider), written in the confirm's own transaction; the relay (lib/effects/relay.ts)
 * carries each one out afterwards, outside any transaction. docs/effects.md has the states.
 */
export const effects = sqliteTable(
  "effects",
  {
    id: text("id").primaryKey(),
    /** The confirmed action (its id is the operation id of everything it wrote). */
    actionId: text("action_id").notNull(),
    /** What to do, e.g. `payment.refund`; one effect of a kind per action. */
    kind: text("kind").notNull(),
    /** Sent to the provider with every request for this effect; derived from the operation id. */
    idempotencyKey: text("idempotency_key").notNull().unique(),
    payload: text("payload", { mode: "json" }).notNull(),
    status: text("status", { enum: EFFECT_STATUSES }).notNull().default("pending"),
    /** Provider calls started (a claim counts one, also when its relay dies mid-call). */
    attempts: integer("attempts").notNull().default(0),
    /** Not claimed before this time (backoff between attempts). */
    nextAttemptAt: ms("next_attempt_at").notNull(),
    /** The relay holding the effect while `in_flight`, and until when: a dead relay's lapses. */
    leaseOwner: text("lease_owner"),
    leaseUntil: ms("lease_until"),
    lastErrorCode: text("last_error_code"),
    /** The provider's id of what it did (a refund `re_…`). */
    providerRef: text("provider_ref"),
    createdAt: createdAt(),
    updatedAt: ms("updated_at").notNull(),
    /** When it reached succeeded, failed or needs_attention (or staff resolved it). */
    settledAt: ms("settled_at"),
    /** Staff's note when they settled it by hand (`resolved`), and who did. */
    resolutionNote: text("resolution_note"),
    resolvedBy: text("resolved_by"),
    /** When staff last sent it back to the relay: its time budget counts from then. */
    retriedAt: ms("retried_at"),
  },
  (t) => [
    uniqueIndex("effects_action_kind_uq").on(t.actionId, t.kind),
    index("effects_status_next_idx").on(t.status, t.nextAttemptAt),
    index("effects_status_lease_idx").on(t.status, t.leaseUntil),
    // The staff queue: effects of a status, newest first.
    index("effects_status_created_idx").on(t.status, t.createdAt),
  ],
);

/**
 * The built-in payment provider (`ledger`, the default without STRIPE_SECRET_KEY): refunds are
 * rows here, written by the relay through the same outbox as a real provider would be called,
 * with the same idempotency: one row per key.
 */
export const refundsLedger = sqliteTable(
  "refunds_ledger",
  {
    id: text("id").primaryKey(),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    operationId: text("operation_id").notNull(),
    actionId: text("action_id").notNull(),
    orderId: text("order_id").notNull(),
    paymentRef: text("payment_ref"),
    amountMinor: integer("amount_minor").notNull(),
    currency: text("currency").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("refunds_ledger_operation_idx").on(t.operationId)],
);

/**
 * The integration canary: one row per provider configuration a relay has used (its kind of effect
 * and the keyed fingerprint of the configuration, lib/effects/canary.ts). Shared by every
 * instance, so "one at a time" holds across relays: `current_effect_id` is the one effect of that
 * kind released under the canary, set by a conditional update only while it is empty.
 */
export const effectCanaries = sqliteTable(
  "effect_canaries",
  {
    kind: text("kind").notNull(),
    /** A keyed, truncated hash of the configuration: never the key or URL itself. */
    fingerprint: text("fingerprint").notNull(),
    /** Which provider it is (stripe, warehouse_webhook, medusa). */
    provider: text("provider").notNull(),
    status: text("status", { enum: EFFECT_CANARY_STATUSES }).notNull().default("running"),
    /** How many effects must be reconciled (EFFECTS_CANARY_COUNT when it started). */
    required: integer("required").notNull(),
    confirmed: integer("confirmed").notNull().default(0),
    /** The effect released under the canary and not yet reconciled. */
    currentEffectId: text("current_effect_id"),
    /** The effect whose failure held the canary, and its code. */
    failedEffectId: text("failed_effect_id"),
    lastErrorCode: text("last_error_code"),
    startedAt: ms("started_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
    /** When it passed or was held. */
    settledAt: ms("settled_at"),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.fingerprint] }),
    index("effect_canaries_started_idx").on(t.startedAt),
  ],
);

// ---------------------------------------------------------------- model metrics

/**
 * One row per model call: the chat turn's tool loop (all its steps), a summary fold, a triage.
 * Measurements and ids only: the customer's text stays in `messages`, tool arguments in
 * `audit_events`; a turn row points at its assistant message.
 */
export const modelCalls = sqliteTable(
  "model_calls",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** When the call started. */
    at: ms("at").notNull(),
    kind: text("kind", { enum: MODEL_CALL_KINDS }).notNull(),
    userId: text("user_id"),
    chatId: text("chat_id"),
    /** The assistant message a turn produced; null for summaries, triage and failed turns. */
    messageId: text("message_id"),
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    /** The provider's id of the last response (one per step; the last one answered). */
    responseId: text("response_id"),
    promptVersion: text("prompt_version").notNull(),
    inputTokens: integer("input_tokens"),
    outputTokens: integer("output_tokens"),
    /** From the request to the first streamed part (text or tool call); null if none came. */
    ttftMs: integer("ttft_ms"),
    latencyMs: integer("latency_ms").notNull(),
    finishReason: text("finish_reason"),
    steps: integer("steps").notNull(),
    /** Tool names in call order (the arguments are in the audit trail). */
    toolCalls: text("tool_calls", { mode: "json" }).$type<string[]>().notNull(),
    /** Why the call produced no answer (model_error, aborted, save_failed); null if it did. */
    error: text("error"),
    /** A turn's profile (lib/chat/candidate/profile.ts); null for summaries and triage. */
    fingerprint: text("fingerprint"),
    /** A turn's tool calls its policy refused (business errors): the drift corridor's signal. */
    refusals: integer("refusals").notNull().default(0),
    /** The write a turn proposed (its pending action), so a declined proposal is counted. */
    actionId: text("action_id"),
    /** Served by the candidate profile as a canary (docs/operations.md). */
    canary: integer("canary", { mode: "boolean" }).notNull().default(false),
    /** A canary turn the candidate failed (model_error, timeout) and the live profile answered. */
    fallback: text("fallback"),
    /**
     * The bytes (UTF-8 JSON) of a turn's tool arguments and results: the drift corridor's payload
     * size. Null for rows from before it was measured and for calls without tools to speak of.
     */
    payloadBytes: integer("payload_bytes"),
  },
  (t) => [
    index("model_calls_at_idx").on(t.at),
    index("model_calls_chat_at_idx").on(t.chatId, t.at),
  ],
);

/**
 * One row per live turn the candidate profile repeated in shadow: how the two trajectories
 * compare. Tool names, which argument fields differed, counts and measurements only: no
 * argument values and no text of the customer's or either model's (the audit keeps the live
 * arguments; the candidate's are never stored).
 */
export const candidateComparisons = sqliteTable(
  "candidate_comparisons",
  {
    id: text("id").primaryKey(),
    /** When the live turn started. */
    at: ms("at").notNull(),
    chatId: text("chat_id").notNull(),
    userId: text("user_id").notNull(),
    /** The live turn's assistant message. */
    messageId: text("message_id").notNull(),
    liveFingerprint: text("live_fingerprint").notNull(),
    candidateFingerprint: text("candidate_fingerprint").notNull(),
    liveTools: text("live_tools", { mode: "json" }).$type<string[]>().notNull(),
    candidateTools: text("candidate_tools", { mode: "json" }).$type<string[]>().notNull(),
    /** The same tools in the same order. */
    toolsAgree: integer("tools_agree", { mode: "boolean" }).notNull(),
    /** The same tools with deep-equal arguments, call by call. */
    argsAgree: integer("args_agree", { mode: "boolean" }).notNull(),
    /** Per call of the same tool at the same place: the argument fields that differ (paths). */
    argDiffs: text("arg_diffs", { mode: "json" })
      .$type<{ call: number; tool: string; fields: string[] }[]>()
      .notNull(),
    liveWrite: integer("live_write", { mode: "boolean" }).notNull(),
    candidateWrite: integer("candidate_write", { mode: "boolean" }).notNull(),
    /** Tool calls the tool's policy refused (business errors). */
    liveRefusals: integer("live_refusals").notNull(),
    candidateRefusals: integer("candidate_refusals").notNull(),
    liveAnswerChars: integer("live_answer_chars").notNull(),
    candidateAnswerChars: integer("candidate_answer_chars").notNull(),
    liveLatencyMs: integer("live_latency_ms").notNull(),
    candidateLatencyMs: integer("candidate_latency_ms").notNull(),
    liveTokens: integer("live_tokens"),
    candidateTokens: integer("candidate_tokens"),
    /** Why the candidate produced no answer (model_error, timeout); null if it did. */
    candidateError: text("candidate_error"),
  },
  (t) => [
    index("candidate_comparisons_at_idx").on(t.at),
    index("candidate_comparisons_fingerprint_at_idx").on(t.candidateFingerprint, t.at),
  ],
);

/**
 * A candidate profile's canary, one row per candidate fingerprint: when it began (only chats
 * created since are eligible) and its rollback, automatic or by staff. The rollback is a
 * conditional update, so of several instances judging the same windows one rolls back.
 */
export const candidateRollouts = sqliteTable("candidate_rollouts", {
  fingerprint: text("fingerprint").primaryKey(),
  since: ms("since").notNull(),
  rolledBackAt: ms("rolled_back_at"),
  rollbackReason: text("rollback_reason"),
  /** The staff member who pressed the kill switch; null for an automatic rollback. */
  rolledBackBy: text("rolled_back_by"),
});

/**
 * Operational alerts (a drift breach, a canary rollback): shown on the staff pages until a
 * staff member acknowledges one, and sent through the outbox as a signed webhook. `dedupeKey`
 * makes raising the same alert from several instances one row.
 */
export const alerts = sqliteTable(
  "alerts",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    dedupeKey: text("dedupe_key").notNull().unique(),
    at: ms("at").notNull(),
    /** The profile it is about. */
    fingerprint: text("fingerprint"),
    detail: text("detail", { mode: "json" }).notNull(),
    acknowledgedAt: ms("acknowledged_at"),
    acknowledgedBy: text("acknowledged_by"),
  },
  (t) => [index("alerts_ack_at_idx").on(t.acknowledgedAt, t.at)],
);

/**
 * Daily counters for the staff metrics page, kept by the writers in the same transaction as the
 * row they count (audit events, model calls), so a range costs one primary-key range read of a
 * few rows per day however many events it covers. `day` is UTC days since the epoch; `name`
 * says what is counted and `key` splits it (a tool and status, a latency bucket, a model).
 */
export const metricsDaily = sqliteTable(
  "metrics_daily",
  {
    day: integer("day").notNull(),
    name: text("name").notNull(),
    key: text("key").notNull().default(""),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.name, t.key] })],
);

/**
 * The audit status chart's counters: audit events by status in epoch-aligned UTC buckets of
 * AUDIT_COUNT_SPANS hours (an hour, a day, 30 days), one column per status so a bucket is one
 * row. The audit writer bumps one row per span in the event's own transaction. The chart sums
 * the widest whole buckets inside its range and counts only the partial hours at its two edges
 * in audit_events: at most 2 x 29 day rows, 2 x 23 hour rows and one row per 30 days. Small:
 * 8,760 hour rows, 365 day rows and 13 thirty-day rows a year at most (hours over years is fine).
 */
export const auditStatusCounts = sqliteTable(
  "audit_status_counts",
  {
    spanHours: integer("span_hours").notNull(),
    /** floor(at / span): the bucket's start in spans since the epoch. */
    bucket: integer("bucket").notNull(),
    ...statusCounters(),
  },
  (t) => [primaryKey({ columns: [t.spanHours, t.bucket] })],
);

/**
 * One anonymised profile per live chat turn (lib/chat/probes/profile.ts): the shape of the turn,
 * never its text or values: language, message count, sizes, tool names with their arguments'
 * shapes, the class of each order touched, the outcome. `npm run eval -- --probes` builds its
 * probe set from the mix of these.
 */
export const turnProfiles = sqliteTable(
  "turn_profiles",
  {
    id: text("id").primaryKey(),
    at: ms("at").notNull(),
    /** The live profile's fingerprint the turn ran under. */
    fingerprint: text("fingerprint").notNull(),
    profile: text("profile", { mode: "json" }).notNull(),
  },
  (t) => [index("turn_profiles_at_idx").on(t.at)],
);

/**
 * A probe set built by `npm run eval -- --probes`: utterances of the eval's own tables and demo
 * orders in the mix of recent turn profiles, under the live fingerprint it was built for. A newer
 * live fingerprint makes the newest set stale (the staff pages say so).
 */
export const probeSets = sqliteTable(
  "probe_sets",
  {
    id: text("id").primaryKey(),
    builtAt: ms("built_at").notNull(),
    fingerprint: text("fingerprint").notNull(),
    /** How many turn profiles the mix was read from. */
    profiles: integer("profiles").notNull(),
    mix: text("mix", { mode: "json" }).notNull(),
    probes: text("probes", { mode: "json" }).notNull(),
  },
  (t) => [index("probe_sets_built_idx").on(t.builtAt)],
);
