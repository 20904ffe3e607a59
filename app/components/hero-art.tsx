/**
 * The landing page's hero picture (a course view: outline, lesson, progress ring), drawn inline
 * rather than loaded from /images/hero-course.svg: it is the page's largest element, and as an
 * image it was painted only after its own request, so Largest Contentful Paint waited for it
 * (issue 31). Inline, it is painted with the HTML. The file stays for links and social cards.
 */
export function HeroArt() {
  return (
    <svg
      className="hero-art"
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 420 320"
      width={420}
      height={320}
      aria-hidden="true"
      focusable="false"
      data-testid="hero-art"
    >
      <rect x="10" y="20" width="400" height="280" rx="18" fill="#e0e7ff" />
      <rect x="30" y="40" width="120" height="240" rx="12" fill="#ffffff" />
      <g fill="#c7d2fe">
        <rect x="44" y="58" width="92" height="12" rx="6" />
        <rect x="44" y="96" width="80" height="10" rx="5" />
        <rect x="44" y="122" width="86" height="10" rx="5" />
        <rect x="44" y="148" width="70" height="10" rx="5" />
        <rect x="44" y="174" width="84" height="10" rx="5" />
      </g>
      <g fill="#22c55e">
        <circle cx="128" cy="101" r="5" />
        <circle cx="128" cy="127" r="5" />
      </g>
      <rect x="166" y="40" width="224" height="240" rx="12" fill="#ffffff" />
      <rect x="184" y="58" width="150" height="14" rx="7" fill="#4338ca" />
      <rect x="184" y="86" width="188" height="96" rx="10" fill="#4338ca" />
      <path d="M266 116v36l30-18z" fill="#ffffff" />
      <g fill="#c7d2fe">
        <rect x="184" y="198" width="188" height="9" rx="4.5" />
        <rect x="184" y="216" width="170" height="9" rx="4.5" />
        <rect x="184" y="234" width="180" height="9" rx="4.5" />
        <rect x="184" y="252" width="120" height="9" rx="4.5" />
      </g>
      <circle cx="360" cy="64" r="14" fill="none" stroke="#c7d2fe" strokeWidth="5" />
      <path
        d="M360 50a14 14 0 0 1 13 19"
        fill="none"
        stroke="#22c55e"
        strokeWidth="5"
        strokeLinecap="round"
      />
    </svg>
  );
}
