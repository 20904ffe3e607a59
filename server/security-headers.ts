/** Headers every response carries. The CSP allows inline scripts only with this request's nonce. */
export function applySecurityHeaders(headers: Headers, nonce: string | null, production: boolean) {
  const scriptSrc = nonce ? `'self' 'nonce-${nonce}'` : `'self'`;
  const csp = [
    `default-src 'self'`,
    `script-src ${scriptSrc}${production ? '' : ` 'unsafe-eval'`}`,
    // react-toastify injects its stylesheet at run time.
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' data: blob: https:`,
    `font-src 'self' data:`,
    `connect-src 'self'${production ? '' : ' ws: wss:'}`,
    `frame-src https://www.youtube-nocookie.com https://www.youtube.com`,
    `form-action 'self' https:`,
    `frame-ancestors 'none'`,
    `base-uri 'self'`,
    `object-src 'none'`,
  ].join('; ');
  headers.set('Content-Security-Policy', csp);
  headers.set('X-Frame-Options', 'DENY');
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
}
