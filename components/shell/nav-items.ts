/** The sections the header links to, in order. A section is active on its own path and below it. */
export interface NavItem {
  readonly href: string;
  readonly label: string;
  /** Extra path prefixes that belong to the section (the editor belongs to Workflows). */
  readonly matches: readonly string[];
}

/** The header's sections. Add one here when its page exists. */
export const NAV_ITEMS: readonly NavItem[] = [
  { href: "/", label: "Workflows", matches: ["/workflows"] },
  { href: "/runs", label: "Runs", matches: [] },
  { href: "/settings", label: "Settings", matches: [] },
];

/** Whether `pathname` is inside the section `item`. */
export function isActiveNavItem(item: NavItem, pathname: string): boolean {
  if (item.href === "/" ? pathname === "/" : pathname === item.href || pathname.startsWith(`${item.href}/`)) return true;
  return item.matches.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** Share pages (`/share/<token>`) are read by people without an account: no section links, no studio notices. */
export function isSharePage(pathname: string): boolean {
  return pathname.startsWith("/share/");
}
