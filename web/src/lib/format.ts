// Money as the tables show it.

/** `+$12`, `−$4` (a real minus sign), `+$0`. */
export function signedMoney(amount: number): string {
  return `${amount < 0 ? '−' : '+'}$${Math.abs(amount)}`;
}

/** `$12`, `-$4`: a balance or a pot. */
export function money(amount: number): string {
  return amount < 0 ? `-$${-amount}` : `$${amount}`;
}
