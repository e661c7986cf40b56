#!/usr/bin/env node
/**
 * npm run store:medusa -- start|stop
 *
 * The demo store on a real Medusa v2 server (stores/medusa/), for the store-backed tests and for
 * trying STORE_BACKEND=medusa by hand (docs/stores.md).
 *
 * start: installs stores/medusa's own dependencies once, (re)creates its PostgreSQL database
 * (MEDUSA_DATABASE_URL, default postgres://root@localhost:5432/returns_desk_medusa), migrates it,
 * starts `medusa start` on a free port, waits for GET /health, creates an admin user and a secret
 * API key, seeds the demo customers (the e-mail addresses of our demo accounts) with their orders,
 * and prints one JSON line:
 *   {"url", "apiKey", "customers": [{"email", "storeCustomerId"}], "orders": [{"displayId", "customerEmail", "state"}]}
 * The server keeps running (detached) until `stop`. Its log: stores/medusa/.medusa-server.log.
 *
 * Each start begins from an empty database, so the seed (and so every test) sees the same store.
 * The first start also keeps a copy of the migrated and seeded database as a template
 * (<database>_template); a start within two hours of it, with the same Medusa install and this
 * same script, creates the database from that copy and skips the migrations and the seed, which
 * are most of a start. npm test starts the store twice (the store suites, then the store's
 * browser suite), so the second start is the quick one. MEDUSA_TEMPLATE=0 never uses one.
 *
 * kill: SIGKILLs the running server, as a crash would, and keeps its database and state.
 * restart: starts the server again (killing it first if it runs) on the same URL and database,
 *   without seeding, and prints the same JSON line. The store tests use kill and restart to stop
 *   the real server while our effects are in flight at it.
 * order --customer anna|boris [--state processing|shipped|delivered_recent|delivered_old|cancelled|delivered_items|processing_items]:
 *   one more paid order on the running store, printed as {"displayId", "customerEmail", "state"}
 *   (delivered_items: the catalogue's T-shirts, shoes and socks, as Anna's seeded order).
 *
 * The catalogue (PRODUCTS) is the built-in store's: products, size options, variants and stock
 * at the demo warehouse. Its orders (delivered_items, delivered_shoes, processing_items) come
 * after every other, so the older orders keep their display ids.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "..");
const dir = path.join(root, "stores", "medusa");
const stateFile = path.join(dir, ".medusa-state.json");
const logFile = path.join(dir, ".medusa-server.log");
const bin = path.join(dir, "node_modules", ".bin", "medusa");

// @medusajs's database connection insists on SSL unless the host is the string "localhost".
const DATABASE_URL =
  process.env.MEDUSA_DATABASE_URL ?? "postgres://root@localhost:5432/returns_desk_medusa";

const ADMIN = { email: "admin@returns-desk.localhost", password: randomBytes(12).toString("hex") };

/** The demo customers: the same e-mail addresses as our demo accounts (db/seed-data.ts). */
const CUSTOMERS = [
  { key: "anna", email: "anna@example.com", first_name: "Anna", last_name: "Petrova" },
  { key: "boris", email: "boris@example.com", first_name: "Boris", last_name: "Ivanov" },
];

const ADDRESSES = {
  anna: {
    first_name: "Anna",
    last_name: "Petrova",
    address_1: "Hauptstraße 12",
    postal_code: "10115",
    city: "Berlin",
    country_code: "de",
  },
  boris: {
    first_name: "Boris",
    last_name: "Ivanov",
    address_1: "Mariahilfer Straße 45",
    address_2: "Top 7",
    postal_code: "1060",
    city: "Wien",
    country_code: "at",
  },
};

/**
 * The orders, in display-id order from 1001. Prices are in major units, as Medusa's API takes
 * them. Every order but the `unpaid` one is paid (its payment captured, as the system
 * provider's "mark as paid" does). `shipped` and the delivered ones are fulfilled, shipped (and delivered) through the
 * Admin API; `deliveredDaysAgo` then backdates the delivery (and the order) in Medusa's database.
 */
const ORDERS = [
  {
    customer: "anna",
    state: "processing",
    items: [{ title: "Trail Running Shoes", unit_price: 129, quantity: 1 }],
  },
  {
    customer: "anna",
    state: "processing",
    items: [
      { title: "Merino Socks", unit_price: 15, quantity: 3 },
      { title: "Rain Jacket", unit_price: 89, quantity: 1 },
    ],
  },
  {
    customer: "anna",
    state: "cancelled",
    items: [{ title: "Water Bottle", unit_price: 25, quantity: 1 }],
  },
  {
    customer: "anna",
    state: "large",
    items: [{ title: "Road Bike Wheelset", unit_price: 640, quantity: 1 }],
  },
  {
    customer: "boris",
    state: "processing",
    items: [{ title: "Headlamp", unit_price: 49, quantity: 1 }],
  },
  {
    customer: "anna",
    state: "shipped",
    items: [{ title: "Hiking Backpack", unit_price: 110, quantity: 1 }],
  },
  {
    customer: "anna",
    state: "delivered_recent",
    deliveredDaysAgo: 5,
    items: [
      { title: "Fleece Jacket", unit_price: 79, quantity: 1 },
      { title: "Wool Beanie", unit_price: 19, quantity: 2 },
    ],
  },
  {
    customer: "anna",
    state: "delivered_recent",
    deliveredDaysAgo: 3,
    items: [{ title: "Cycling Gloves", unit_price: 35, quantity: 1 }],
  },
  {
    customer: "anna",
    state: "delivered_old",
    deliveredDaysAgo: 45,
    items: [{ title: "Camping Stove", unit_price: 59, quantity: 1 }],
  },
  {
    customer: "anna",
    state: "processing",
    items: [{ title: "Trekking Poles", unit_price: 69, quantity: 1 }],
  },
  {
    customer: "anna",
    state: "processing",
    items: [{ title: "Sleeping Mat", unit_price: 45, quantity: 1 }],
  },
  {
    customer: "anna",
    state: "delivered_recent",
    deliveredDaysAgo: 2,
    items: [{ title: "Running Cap", unit_price: 22, quantity: 1 }],
  },
  {
    customer: "boris",
    state: "processing",
    items: [{ title: "Bike Lock", unit_price: 39, quantity: 1 }],
  },
  // Boris's orders for the fault tests (tests/store/medusa-faults.test.ts and medusa-kill), each
  // test its own order, so no test depends on another's leftovers. After Anna's, so her orders
  // keep their display ids.
  ...["Bike Bell", "Saddle Bag", "Chain Oil"].map((title) => ({
    customer: "boris",
    state: "processing",
    items: [{ title, unit_price: 19, quantity: 1 }],
  })),
  ...["Bike Pump", "Bottle Cage", "Tyre Levers"].map((title) => ({
    customer: "boris",
    state: "delivered_recent",
    deliveredDaysAgo: 4,
    items: [{ title, unit_price: 29, quantity: 1 }],
  })),
  // Boris's orders for the test that kills the real server and starts it again
  // (tests/store/medusa-restart.test.ts).
  ...["Mudguards", "Bike Light"].map((title) => ({
    customer: "boris",
    state: "processing",
    items: [{ title, unit_price: 24, quantity: 1 }],
  })),
  // Boris's orders for the merchant-cancel test (tests/store/medusa-merchant-cancel.test.ts):
  // two paid, and one never paid (no captured payment, so its cancel refunds nothing).
  ...["Kickstand", "Chain Guard"].map((title) => ({
    customer: "boris",
    state: "processing",
    items: [{ title, unit_price: 19, quantity: 1 }],
  })),
  {
    customer: "boris",
    state: "unpaid",
    unpaid: true,
    items: [{ title: "Bar Tape", unit_price: 19, quantity: 1 }],
  },
];

/**
 * The catalogue, the same as the built-in store's (db/seed-data.ts DEMO_PRODUCTS): products with
 * a `size` option, one variant per size at its own price (major units), and stock at the demo
 * warehouse. `stock` is what is available once the seed's orders are in (the seed sets each
 * level so), so an exchange test can rely on it: shoes 43 has exactly one unit, 44 none. The
 * socks are final sale (the product's metadata `final_sale`), and come in one version.
 */
const PRODUCTS = [
  {
    key: "tshirt",
    title: "Merino T-shirt",
    option: "size",
    variants: [
      { sku: "merino-tshirt-s", value: "S", price: 30, stock: 8 },
      { sku: "merino-tshirt-m", value: "M", price: 35, stock: 8 },
      { sku: "merino-tshirt-l", value: "L", price: 40, stock: 8 },
    ],
  },
  {
    key: "shoes",
    title: "Trail running shoes",
    option: "size",
    variants: [
      { sku: "trail-shoes-41", value: "41", price: 120, stock: 4 },
      { sku: "trail-shoes-42", value: "42", price: 120, stock: 4 },
      { sku: "trail-shoes-43", value: "43", price: 120, stock: 1 },
      { sku: "trail-shoes-44", value: "44", price: 120, stock: 0 },
    ],
  },
  {
    key: "socks",
    title: "Hiking socks",
    finalSale: true,
    variants: [{ sku: "hiking-socks-one", value: null, price: 12, stock: 30 }],
  },
];

const DEFAULT_OPTION = "Default option";
const DEFAULT_VALUE = "Default option value";

/** The four lines of Anna's clothes order (`delivered_items`), by variant sku. */
const ITEMS_ORDER = [
  { sku: "merino-tshirt-m", quantity: 2 },
  { sku: "trail-shoes-42", quantity: 1 },
  { sku: "hiking-socks-one", quantity: 1 },
];

/*
 * The orders of catalogue variants, after every order above so that those keep their display
 * ids: Anna's four lines delivered 3 days ago, Boris's shoes delivered 2 days ago, and Anna's
 * T-shirt still processing (its size can change before it ships).
 */
ORDERS.push(
  { customer: "anna", state: "delivered_items", deliveredDaysAgo: 3, variants: ITEMS_ORDER },
  {
    customer: "boris",
    state: "delivered_shoes",
    deliveredDaysAgo: 2,
    variants: [{ sku: "trail-shoes-42", quantity: 1 }],
  },
  {
    customer: "anna",
    state: "processing_items",
    variants: [{ sku: "merino-tshirt-m", quantity: 1 }],
  },
);

const DAY = 86_400_000;

const log = (msg) => process.stderr.write(`store:medusa: ${msg}\n`);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"], ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited with ${r.status}`);
}

/** Medusa's dependencies (~1.3k packages), once, exactly as its lockfile pins them; niced. */
function install() {
  if (fs.existsSync(bin)) return;
  log("installing stores/medusa (once, about a minute)");
  run("nice", ["-n", "19", "npm", "ci", "--no-audit", "--no-fund"], {
    cwd: dir,
    stdio: ["ignore", process.stderr, process.stderr],
  });
}

function databaseName() {
  const name = new URL(DATABASE_URL).pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
  return name;
}

/** A client of the server's maintenance database, for CREATE and DROP DATABASE. */
async function serverClient() {
  const url = new URL(DATABASE_URL);
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return client;
}

/** The store's database, empty, or a copy of `template`. */
async function recreateDatabase(template) {
  const name = databaseName();
  const client = await serverClient();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  } finally {
    await client.end();
  }
}

/** How long a template's seed stays true: its orders were delivered "N days ago" when it was made. */
const TEMPLATE_MAX_AGE_MS = 2 * 3_600_000;

/** What a template was made from: this script (the seed) and Medusa's install (the migrations). */
function templateKey() {
  const hash = createHash("sha256");
  for (const f of [
    import.meta.filename,
    path.join(dir, "package-lock.json"),
    path.join(dir, "medusa-config.js"),
  ])
    hash.update(fs.readFileSync(f));
  return hash.digest("hex").slice(0, 16);
}

/** The usable template: its name and what the seed printed, or null. */
async function findTemplate() {
  if (process.env.MEDUSA_TEMPLATE === "0") return null;
  const name = `${databaseName()}_template`;
  const client = await serverClient();
  try {
    const { rows } = await client.query(
      "SELECT shobj_description(oid, 'pg_database') AS meta FROM pg_database WHERE datname = $1",
      [name],
    );
    const meta = rows[0]?.meta ? JSON.parse(rows[0].meta) : null;
    if (!meta || meta.key !== templateKey() || Date.now() - meta.made > TEMPLATE_MAX_AGE_MS)
      return null;
    return { name, seeded: meta.seeded };
  } finally {
    await client.end();
  }
}

/**
 * Keeps the freshly seeded database as the template. The server is connected to it, and
 * PostgreSQL copies a database only while nobody is, so the copy is pg_dump's (a consistent
 * snapshot of a live database) restored into a new database, published by a rename. A failure
 * here costs the next start its shortcut, nothing else.
 */
async function saveTemplate(seeded) {
  const name = `${databaseName()}_template`;
  const building = `${name}_${process.pid}`;
  const client = await serverClient();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${building}`);
    const target = new URL(DATABASE_URL);
    target.pathname = `/${building}`;
    const dump = spawnSync(
      "sh",
      [
        "-c",
        'pg_dump --format=custom "$1" | pg_restore --no-owner --dbname="$2"',
        "sh",
        DATABASE_URL,
        target.toString(),
      ],
      { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" },
    );
    if (dump.status !== 0) throw new Error(`pg_dump | pg_restore: ${dump.stderr.trim()}`);
    const meta = JSON.stringify({ key: templateKey(), made: Date.now(), seeded });
    await client.query(`COMMENT ON DATABASE ${building} IS ${client.escapeLiteral(meta)}`);
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
  } catch (err) {
    log(
      `no template kept (${err instanceof Error ? err.message : err}); the next start seeds again`,
    );
    await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`).catch(() => {});
  } finally {
    await client.end();
  }
}

/** Medusa's own database belongs to this demo store: the seed may set what the API cannot. */
async function storeSql(text, values) {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function medusaEnv(port) {
  return {
    ...process.env,
    DATABASE_URL,
    NODE_ENV: "development",
    PORT: String(port),
    JWT_SECRET: randomBytes(16).toString("hex"),
    COOKIE_SECRET: randomBytes(16).toString("hex"),
    MEDUSA_DISABLE_TELEMETRY: "true",
    DO_NOT_TRACK: "1",
  };
}

async function waitForHealth(url, child, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`medusa start exited (see ${logFile})`);
    try {
      const r = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
      if (r.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`medusa did not answer /health in ${timeoutMs} ms (see ${logFile})`);
}

async function api(url, token, method, p, body) {
  const r = await fetch(`${url}${p}`, {
    method,
    headers: {
      "content-type": "application/json",
      authorization: token.startsWith("sk_")
        ? `Basic ${Buffer.from(`${token}:`).toString("base64")}`
        : `Bearer ${token}`,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : {};
}

/**
 * What fulfilling an order needs at Medusa: a stock location with the manual fulfilment provider,
 * a shipping fulfilment set whose service zone covers the region's countries, a shipping profile,
 * and a free standard shipping option (the seeded orders carry it as their shipping method).
 */
async function shippingSetup(url, key, salesChannelId) {
  const { stock_location } = await api(url, key, "POST", "/admin/stock-locations", {
    name: "Demo warehouse",
  });
  const loc = `/admin/stock-locations/${stock_location.id}`;
  await api(url, key, "POST", `${loc}/fulfillment-providers`, { add: ["manual_manual"] });
  if (salesChannelId)
    await api(url, key, "POST", `${loc}/sales-channels`, { add: [salesChannelId] });
  const withSets = await api(url, key, "POST", `${loc}/fulfillment-sets?fields=*fulfillment_sets`, {
    name: "Shipping",
    type: "shipping",
  });
  const set = withSets.stock_location.fulfillment_sets[0];
  const { fulfillment_set } = await api(
    url,
    key,
    "POST",
    `/admin/fulfillment-sets/${set.id}/service-zones`,
    {
      name: "Europe",
      geo_zones: ["de", "at", "fr", "nl"].map((c) => ({ type: "country", country_code: c })),
    },
  );
  const zone = fulfillment_set.service_zones[0];
  const { shipping_profiles } = await api(url, key, "GET", "/admin/shipping-profiles");
  const profile =
    shipping_profiles[0] ??
    (await api(url, key, "POST", "/admin/shipping-profiles", { name: "Default", type: "default" }))
      .shipping_profile;
  const { shipping_option } = await api(url, key, "POST", "/admin/shipping-options", {
    name: "Standard",
    service_zone_id: zone.id,
    shipping_profile_id: profile.id,
    provider_id: "manual_manual",
    price_type: "flat",
    type: { label: "Standard", description: "Standard shipping", code: "standard" },
    prices: [{ currency_code: "eur", amount: 0 }],
    rules: [
      { attribute: "is_return", operator: "eq", value: "false" },
      { attribute: "enabled_in_store", operator: "eq", value: "true" },
    ],
  });
  return {
    shippingOptionId: shipping_option.id,
    shippingProfileId: profile.id,
    locationId: stock_location.id,
  };
}

/**
 * The catalogue's products, published in the sales channel, each variant's inventory item
 * stocked at the warehouse with enough for the seed's orders (levels() sets the final numbers
 * afterwards). Returns the variants by sku: their ids and inventory items.
 */
async function catalogue(url, key, salesChannelId, shippingProfileId, locationId) {
  const variants = {};
  for (const p of PRODUCTS) {
    const { product } = await api(url, key, "POST", "/admin/products", {
      title: p.title,
      status: "published",
      shipping_profile_id: shippingProfileId,
      ...(salesChannelId ? { sales_channels: [{ id: salesChannelId }] } : {}),
      ...(p.finalSale ? { metadata: { final_sale: true } } : {}),
      // Medusa wants an option on every product: one that comes in one version has its admin's
      // "Default option", which the adapter does not show as an option (lib/store/medusa.ts).
      options: [
        p.option
          ? { title: p.option, values: p.variants.map((v) => v.value) }
          : { title: DEFAULT_OPTION, values: [DEFAULT_VALUE] },
      ],
      // In size order: "a size bigger" is the next rank.
      variants: p.variants.map((v, rank) => ({
        title: v.value ?? p.title,
        variant_rank: rank,
        sku: v.sku,
        manage_inventory: true,
        prices: [{ currency_code: "eur", amount: v.price }],
        options: p.option ? { [p.option]: v.value } : { [DEFAULT_OPTION]: DEFAULT_VALUE },
      })),
    });
    const { product: read } = await api(
      url,
      key,
      "GET",
      `/admin/products/${product.id}?fields=variants.id,variants.sku,variants.inventory_items.inventory_item_id`,
    );
    for (const v of read.variants) {
      const inventoryItemId = v.inventory_items[0].inventory_item_id;
      const want = p.variants.find((x) => x.sku === v.sku);
      variants[v.sku] = { id: v.id, inventoryItemId, stock: want.stock };
      await api(url, key, "POST", `/admin/inventory-items/${inventoryItemId}/location-levels`, {
        location_id: locationId,
        stocked_quantity: want.stock + 20,
      });
    }
  }
  return variants;
}

/**
 * Each variant's level set so that what is available (stocked less reserved) is the catalogue's
 * `stock`, whatever the seed's orders took or hold.
 */
async function levels(url, key, variants, locationId) {
  for (const v of Object.values(variants)) {
    const { inventory_levels } = await api(
      url,
      key,
      "GET",
      `/admin/inventory-items/${v.inventoryItemId}/location-levels?location_id=${locationId}`,
    );
    const reserved = inventory_levels[0]?.reserved_quantity ?? 0;
    await api(
      url,
      key,
      "POST",
      `/admin/inventory-items/${v.inventoryItemId}/location-levels/${locationId}`,
      { stocked_quantity: v.stock + reserved },
    );
  }
}

/** Paid: a payment collection for the order's total, marked paid (authorised and captured). */
async function pay(url, key, orderId) {
  const { order } = await api(url, key, "GET", `/admin/orders/${orderId}?fields=id,total`);
  const { payment_collection } = await api(url, key, "POST", "/admin/payment-collections", {
    order_id: orderId,
    amount: order.total,
  });
  await api(url, key, "POST", `/admin/payment-collections/${payment_collection.id}/mark-as-paid`, {
    order_id: orderId,
  });
}

/** Fulfilled and shipped; delivered too when `deliveredDaysAgo` is given, backdated. */
async function fulfil(url, key, orderId, deliveredDaysAgo) {
  const { order } = await api(url, key, "GET", `/admin/orders/${orderId}?fields=*items`);
  const items = order.items.map((i) => ({ id: i.id, quantity: i.quantity }));
  const fulfilled = await api(
    url,
    key,
    "POST",
    `/admin/orders/${orderId}/fulfillments?fields=*fulfillments`,
    {
      items,
    },
  );
  const f = fulfilled.order.fulfillments.at(-1);
  await api(url, key, "POST", `/admin/orders/${orderId}/fulfillments/${f.id}/shipments`, { items });
  if (deliveredDaysAgo === undefined) return;
  await api(
    url,
    key,
    "POST",
    `/admin/orders/${orderId}/fulfillments/${f.id}/mark-as-delivered`,
    {},
  );
  const delivered = new Date(Date.now() - deliveredDaysAgo * DAY);
  const shipped = new Date(delivered.getTime() - 2 * DAY);
  const placed = new Date(delivered.getTime() - 4 * DAY);
  await storeSql(
    "UPDATE fulfillment SET packed_at = $2, shipped_at = $2, delivered_at = $3 WHERE id = $1",
    [f.id, shipped, delivered],
  );
  await storeSql(`UPDATE "order" SET created_at = $2 WHERE id = $1`, [orderId, placed]);
}

async function seed(url) {
  run(bin, ["user", "-e", ADMIN.email, "-p", ADMIN.password], {
    cwd: dir,
    env: medusaEnv(0),
    stdio: ["ignore", fs.openSync(logFile, "a"), fs.openSync(logFile, "a")],
  });
  const login = await fetch(`${url}/auth/user/emailpass`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  if (!login.ok) throw new Error(`admin login: ${login.status} ${await login.text()}`);
  const { token: jwt } = await login.json();
  const { api_key } = await api(url, jwt, "POST", "/admin/api-keys", {
    title: "Returns Desk",
    type: "secret",
  });
  const key = api_key.token;

  const { region } = await api(url, key, "POST", "/admin/regions", {
    name: "Europe",
    currency_code: "eur",
    countries: ["de", "at", "fr", "nl"],
  });
  const { sales_channels } = await api(url, key, "GET", "/admin/sales-channels?limit=1");
  const salesChannelId = sales_channels[0]?.id;
  const { shippingOptionId, shippingProfileId, locationId } = await shippingSetup(
    url,
    key,
    salesChannelId,
  );
  const variants = await catalogue(url, key, salesChannelId, shippingProfileId, locationId);

  // Our order numbers are four digits: the store's display ids start at 1001.
  await storeSql(`SELECT setval(pg_get_serial_sequence('"order"', 'display_id'), 1000, true)`);

  const customers = {};
  for (const c of CUSTOMERS) {
    const { customer } = await api(url, key, "POST", "/admin/customers", {
      email: c.email,
      first_name: c.first_name,
      last_name: c.last_name,
    });
    customers[c.key] = { email: c.email, storeCustomerId: customer.id };
  }

  const shop = {
    regionId: region.id,
    salesChannelId,
    shippingOptionId,
    locationId,
    customers,
    variants,
  };
  const orders = [];
  for (const o of ORDERS) orders.push(await createOrder(url, key, shop, o));
  await levels(url, key, variants, locationId);
  return { apiKey: key, customers: Object.values(customers), orders, shop };
}

/**
 * One order of a demo customer, in `o.state` (processing, shipped, delivered_*, cancelled,
 * unpaid), as the seed makes them: a draft order converted, its payment captured, then cancelled or
 * fulfilled (and its delivery backdated) as the state asks.
 */
async function createOrder(url, key, shop, o) {
  const c = shop.customers[o.customer];
  const address = ADDRESSES[o.customer];
  const { draft_order } = await api(url, key, "POST", "/admin/draft-orders", {
    email: c.email,
    customer_id: c.storeCustomerId,
    region_id: shop.regionId,
    ...(shop.salesChannelId ? { sales_channel_id: shop.salesChannelId } : {}),
    // Catalogue lines name their variant (Medusa takes its price and reserves its stock).
    items:
      o.items ??
      o.variants.map((v) => ({ variant_id: shop.variants[v.sku].id, quantity: v.quantity })),
    shipping_address: address,
    billing_address: address,
    shipping_methods: [{ shipping_option_id: shop.shippingOptionId, name: "Standard", amount: 0 }],
  });
  const { order } = await api(
    url,
    key,
    "POST",
    `/admin/draft-orders/${draft_order.id}/convert-to-order`,
  );
  if (!o.unpaid) await pay(url, key, order.id);
  if (o.state === "cancelled") await api(url, key, "POST", `/admin/orders/${order.id}/cancel`);
  if (o.state === "shipped" || o.deliveredDaysAgo !== undefined)
    await fulfil(url, key, order.id, o.deliveredDaysAgo);
  return { displayId: String(order.display_id), customerEmail: c.email, state: o.state };
}

/**
 * `order --customer anna|boris [--state processing]`: one more paid order on the running demo
 * store, printed as one JSON line {"displayId", "customerEmail", "state"}. The store tests that
 * generate their cases (tests/store/model-based.test.ts) take a fresh order per case this way.
 */
async function addOrder(argv) {
  const state = readState();
  if (!state?.shop || !alive(state.pid))
    throw new Error("the demo store is not running (npm run store:medusa -- start)");
  const opt = (name, fallback) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : fallback;
  };
  const customer = opt("customer", "boris");
  const orderState = opt("state", "processing");
  if (!state.shop.customers[customer]) throw new Error(`no demo customer "${customer}"`);
  const days = { shipped: undefined, delivered_recent: 3, delivered_old: 45, delivered_items: 3 };
  if (!["processing", "processing_items", "cancelled", ...Object.keys(days)].includes(orderState))
    throw new Error(`unknown state "${orderState}"`);
  const made = await createOrder(state.url, state.apiKey, state.shop, {
    customer,
    state: orderState,
    ...(orderState in days && days[orderState] !== undefined
      ? { deliveredDaysAgo: days[orderState] }
      : {}),
    // delivered_items: the four lines of Anna's clothes order, of the catalogue's variants;
    // processing_items: her T-shirt M, not shipped.
    ...(orderState === "delivered_items"
      ? { variants: ITEMS_ORDER }
      : orderState === "processing_items"
        ? { variants: [{ sku: "merino-tshirt-m", quantity: 1 }] }
        : { items: [{ title: "Handlebar Tape", unit_price: 17, quantity: 1 }] }),
  });
  // The catalogue's stock stays what the seed promised (shoes 43 one unit, 44 none), however
  // many such orders the tests take.
  if (orderState === "delivered_items" || orderState === "processing_items")
    await levels(state.url, state.apiKey, state.shop.variants, state.shop.locationId);
  process.stdout.write(`${JSON.stringify(made)}\n`);
}

function readState() {
  try {
    return JSON.parse(fs.readFileSync(stateFile, "utf8"));
  } catch {
    return null;
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stop() {
  const state = readState();
  if (!state) return;
  if (alive(state.pid)) {
    // The server was started as its own process group: end it and its workers.
    try {
      process.kill(-state.pid, "SIGTERM");
    } catch {}
    const deadline = Date.now() + 15_000;
    while (alive(state.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    if (alive(state.pid)) {
      try {
        process.kill(-state.pid, "SIGKILL");
      } catch {}
    }
  }
  fs.rmSync(stateFile, { force: true });
}

/** The server as a child of its own process group, on `port`, logging to the log file. */
function spawnServer(port) {
  const out = fs.openSync(logFile, "a");
  return spawn(bin, ["start", "--port", String(port)], {
    cwd: dir,
    env: medusaEnv(port),
    detached: true,
    stdio: ["ignore", out, out],
  });
}

/** A crash: the server and its workers get SIGKILL, nothing else is touched. */
async function kill() {
  const state = readState();
  if (!state) throw new Error("no demo store was started (npm run store:medusa -- start)");
  if (!alive(state.pid)) return;
  try {
    process.kill(-state.pid, "SIGKILL");
  } catch {}
  const deadline = Date.now() + 15_000;
  while (alive(state.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive(state.pid)) throw new Error(`medusa (pid ${state.pid}) survived SIGKILL`);
}

/** The same store again: same port (so the same URL), same database and key; no seed. */
async function restart() {
  const state = readState();
  if (!state?.apiKey) throw new Error("no demo store was started (npm run store:medusa -- start)");
  await kill();
  const port = Number(new URL(state.url).port);
  const started = Date.now();
  log(`restarting on ${state.url}`);
  const child = spawnServer(port);
  const { pid: _old, shop: _shop, ...line } = state;
  fs.writeFileSync(stateFile, JSON.stringify({ ...state, pid: child.pid }));
  await waitForHealth(state.url, child);
  log(`ready again in ${Math.round((Date.now() - started) / 1000)} s`);
  process.stdout.write(`${JSON.stringify(line)}\n`);
  child.unref();
}

async function start() {
  const previous = readState();
  if (previous && alive(previous.pid)) await stop();
  install();
  const template = await findTemplate();
  await recreateDatabase(template?.name);
  const started = Date.now();
  fs.writeFileSync(logFile, "");
  const out = fs.openSync(logFile, "a");
  if (!template) {
    log("migrating");
    run(bin, ["db:migrate"], { cwd: dir, env: medusaEnv(0), stdio: ["ignore", out, out] });
  } else log(`from the template ${template.name}: migrated and seeded already`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  log(`starting on ${url}`);
  const child = spawnServer(port);
  fs.writeFileSync(stateFile, JSON.stringify({ pid: child.pid, url }));
  try {
    await waitForHealth(url, child);
    const seeded = template ? template.seeded : await seed(url);
    const { shop, ...rest } = seeded;
    const line = { url, ...rest };
    fs.writeFileSync(stateFile, JSON.stringify({ pid: child.pid, shop, ...line }));
    log(`ready in ${Math.round((Date.now() - started) / 1000)} s`);
    process.stdout.write(`${JSON.stringify(line)}\n`);
    child.unref();
    if (!template && process.env.MEDUSA_TEMPLATE !== "0") {
      const saving = Date.now();
      await saveTemplate(seeded);
      log(`template kept in ${Math.round((Date.now() - saving) / 1000)} s`);
    }
  } catch (err) {
    await stop();
    throw err;
  }
}

const command = process.argv[2];
try {
  if (command === "start") await start();
  else if (command === "stop") await stop();
  else if (command === "kill") await kill();
  else if (command === "restart") await restart();
  else if (command === "order") await addOrder(process.argv.slice(3));
  else {
    process.stderr.write("Usage: npm run store:medusa -- start|stop|kill|restart|order\n");
    process.exit(2);
  }
} catch (err) {
  process.stderr.write(`store:medusa: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
