import type { ReactNode } from 'react';

/**
 * Holds a table that may be wider than a phone: the table scrolls sideways inside this box
 * instead of the whole page. The box is a named region that takes focus, so it can be scrolled
 * with the keyboard too (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
