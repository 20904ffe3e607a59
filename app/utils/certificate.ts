/** Shared by the server renderer and the page: A4 landscape ratio, crisp printed on A4 (~240 dpi). */
export const CERTIFICATE_WIDTH = 2000;
export const CERTIFICATE_HEIGHT = 1414;
export const CERTIFICATE_FILENAME = 'certificate.png';
