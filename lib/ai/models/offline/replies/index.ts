import type { Lang } from "../text";
import { en } from "./en";
import { ru } from "./ru";
import type { Replies } from "./types";

export type { Replies } from "./types";

export const REPLIES: Record<Lang, Replies> = { en, ru };
