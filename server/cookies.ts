const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Browsers keep Secure cookies over https and on http://localhost only. */
export function canKeepSecureCookies(secureRequest: boolean, hostHeader: string | undefined) {
  if (secureRequest) return true;
  const hostname = (hostHeader ?? '').replace(/:\d+$/, '').toLowerCase();
  return LOOPBACK_HOSTS.has(hostname);
}

/** A Set-Cookie value without its Secure attribute. */
export function withoutSecure(cookie: string): string {
  return cookie.replace(/;\s*Secure(?=;|$)/gi, '');
}
