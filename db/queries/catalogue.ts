/**
 * The built-in store's catalogue: a product's variants with their stock, and the reservation of
 * stock by compare-and-set on the variant's stock version (exchange_items' confirm).
 */
import "server-only";
import { and, asc, eq, gte, sql } from "drizzle-orm";
import { first, getDb } from "../index";
import { products, productVariants } from "../schema";

export type VariantRow = typeof productVariants.$inferSelect;
export type ProductRow = typeof products.$inferSelect;

/** A product and its variants in their order (S, M, L), or null when there is no such product. */
export async function getProductWithVariants({
  productId,
}: {
  productId: string;
}): Promise<(ProductRow & { variants: VariantRow[] }) | null> {
  const product = await getDb()
    .select()
    .from(products)
    .where(eq(products.id, productId))
    .then(first);
  if (!product) return null;
  const variants = await getDb()
    .select()
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.position));
  return { ...product, variants };
}

export async function getVariant({ id }: { id: string }): Promise<VariantRow | null> {
  return getDb().select().from(productVariants).where(eq(productVariants.id, id)).then(first);
}

/**
 * Takes `quantity` units of a variant, only if its stock is still at `expectedVersion` and has
 * that many: false when someone else changed the stock since it was read (read it again) or
 * there are not enough. Stock never goes below zero: the condition is in the update itself.
 */
export async function reserveStock({
  variantId,
  quantity,
  expectedVersion,
}: {
  variantId: string;
  quantity: number;
  expectedVersion: number;
}): Promise<boolean> {
  const rows = await getDb()
    .update(productVariants)
    .set({
      stock: sql`${productVariants.stock} - ${quantity}`,
      stockVersion: sql`${productVariants.stockVersion} + 1`,
    })
    .where(
      and(
        eq(productVariants.id, variantId),
        eq(productVariants.stockVersion, expectedVersion),
        gte(productVariants.stock, quantity),
      ),
    )
    .returning({ id: productVariants.id });
  return rows.length === 1;
}

/** Sets a variant's stock (staff and tests: a delivery arrived, or the count was corrected). */
export async function setStock({ variantId, stock }: { variantId: string; stock: number }) {
  await getDb()
    .update(productVariants)
    .set({ stock, stockVersion: sql`${productVariants.stockVersion} + 1` })
    .where(eq(productVariants.id, variantId));
}
