/** Names the audit and the model use for the handoff (no server code: the CLI may import them). */

/** The model's tool (not a registry tool: it plans nothing and writes no business record). */
export const REQUEST_HUMAN = "request_human";
/** The audit's names for the staff operations (not tools the model can call). */
export const STAFF_REPLY = "staff:reply_in_chat";
export const STAFF_RELEASE = "staff:release_chat";
