"use client";
import { createAuthClient } from "better-auth/react";

/** Browser-side better-auth client; same origin, so no base URL is needed. */
export const authClient = createAuthClient();
