/**
 * An e-mail as the audit and staff pages may show it: the first character of the mailbox and the
 * domain, `l•••@example.org`. Enough for staff to tell two guests apart and a shopper to recognise
 * their own address; not enough to write to it.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "•••";
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}
