import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { Suspense } from "react";
import { SignInForm } from "@/components/sign-in-form";
import { getCurrentUser } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage() {
  if (await getCurrentUser(await headers())) redirect("/");
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col justify-center px-4 py-12">
      <h1 className="text-2xl font-semibold">Returns Desk</h1>
      <p className="mt-1 mb-8 text-slate-600">Sign in to chat with support about your orders.</p>
      <Suspense>
        <SignInForm />
      </Suspense>
    </main>
  );
}
