// The server's error codes (docs/protocol.md, "Error codes"), worded in the player's language by `lang/`. The
// server's English `message` is for logs; an unknown code falls back to it.

import { language } from './i18n.svelte';

import type { ErrorCode } from './wire';

export type { ErrorCode };

/** An error from the server in the player's language: by its code, else its English message. */
export function errorText(code: string | undefined, message: string | undefined): string {
  const errors = language().errors;
  if (code && code in errors) return errors[code as ErrorCode];
  return message ?? code ?? '';
}
