import { createContext, useContext } from 'react';

const NonceContext = createContext('');

/** Carries the CSP nonce from entry.server into the document's inline scripts. */
export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
