// The driver moved to harness/ (shared with eval/, which must not import tests/); tests keep this path.
export * from "@/harness/contract";
