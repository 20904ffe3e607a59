/**
 * The brand an operator sells under (issue 40, ADR 0062): the site's name, logo, accent colour and
 * support email. What the browser and the server both need to know of it lives here; reading and
 * saving it is app/services/brand.server.ts.
 */

/** What every page, email and file shows: the settings over the environment's defaults. */
export interface Brand {
  name: string;
  /** The logo's address on this site (a path) or wherever LOGO_URL points. */
  logoUrl: string;
  /** `#rrggbb`, or null for the product's own colours. */
  accent: string | null;
  supportEmail: string | null;
}

/** The product's own accent (app.css `--primary`), which a brand's accent replaces. */
export const PRODUCT_ACCENT = '#4338ca';
/** Text on the accent (buttons) is white, so the accent must read on white: WCAG AA. */
export const MIN_ACCENT_CONTRAST = 4.5;
export const MAX_BRAND_NAME = 60;
export const MAX_LOGO_BYTES = 200 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

const HEX = /^#([0-9a-f]{6})$/;

/** `#ABC`, `abc123`, ` #AbC123 ` as `#aabbcc` / `#abc123`; anything else null. */
export function normalizeHex(input: string): string | null {
  const value = input.trim().toLowerCase().replace(/^#?/, '#');
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(value);
  const full = short
    ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`
    : value;
  return HEX.test(full) ? full : null;
}

function channels(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** WCAG 2 relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const DARK_BACKGROUND = '#0b1020';

/**
 * The accent for the dark theme, where text on it is the dark background (app.css): the colour
 * mixed towards white until it reads against that background, so one setting serves both themes.
 */
export function darkThemeAccent(hex: string): string {
  const [r, g, b] = channels(hex);
  for (let step = 0; step <= 20; step++) {
    const mix = (c: number) => Math.round(c + ((255 - c) * step) / 20);
    const candidate = `#${[mix(r), mix(g), mix(b)].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
    if (contrastRatio(candidate, DARK_BACKGROUND) >= MIN_ACCENT_CONTRAST) return candidate;
  }
  return '#ffffff';
}

/** The style the root sets when a brand has its own accent; null keeps app.css as it is. */
export function accentStyle(accent: string | null): string | null {
  const hex = accent === null ? null : normalizeHex(accent);
  if (!hex) return null;
  return `:root{--primary:${hex}}html.dark{--primary:${darkThemeAccent(hex)}}`;
}
