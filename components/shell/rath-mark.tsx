/** The product mark: three sessions, a fork and a merge. Decorative; the text next to it names the product. */
export function RathMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="var(--rath-accent)" />
      <path d="M9 16h4M13 16c3 0 3-6 6-6h2M13 16c3 0 3 6 6 6h2" fill="none" stroke="var(--rath-on-accent)" strokeWidth="2.2" strokeLinecap="round" />
      <circle cx="8" cy="16" r="2.6" fill="var(--rath-on-accent)" />
      <circle cx="23.5" cy="10" r="2.6" fill="var(--rath-on-accent)" />
      <circle cx="23.5" cy="22" r="2.6" fill="var(--rath-on-accent)" />
    </svg>
  );
}
