import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AppHeader } from "@/components/app-header";
import { ActionLifeView } from "@/components/audit/action-life";
import { requireStaffPage } from "@/lib/audit/page-guard";
import { loadActionLife } from "@/lib/audit/timeline";

export const metadata: Metadata = { title: "Pending action" };
export const dynamic = "force-dynamic";

/** One pending action's life, linked from the transcript view. */
export default async function AuditActionPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireStaffPage();
  const { id } = await params;
  const life = loadActionLife({ actionId: id });
  if (!life) notFound();
  return (
    <>
      <AppHeader user={user} />
      <main className="mx-auto grid max-w-7xl gap-4 px-4 py-6">
        <nav aria-label="Breadcrumb" className="text-sm">
          <Link href="/audit" className="text-brand-700 underline">
            Audit
          </Link>{" "}
          / action
        </nav>
        <ActionLifeView life={life} />
      </main>
    </>
  );
}
