/** Only same-site paths: an open redirect would let a link send members anywhere. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/') {
  if (
    typeof to !== 'string' ||
    !to.startsWith('/') ||
    to.startsWith('//') ||
    to.startsWith('/\\')
  ) {
    return fallback;
  }
  return to;
}
