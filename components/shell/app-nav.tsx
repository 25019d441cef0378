"use client";
/** The header's section links; the current section is marked for sighted users and screen readers alike. */
import Link from "next/link";
import { usePathname } from "next/navigation";
import { isActiveNavItem, isSharePage, NAV_ITEMS } from "./nav-items";

/** Links to every section in NAV_ITEMS (none on a share page, whose reader may have no account). */
export function AppNav() {
  const pathname = usePathname();
  if (isSharePage(pathname)) return null;
  return (
    <>
      {/* The rule between the product mark and the links goes with the links (a share page has neither). */}
      <span aria-hidden="true" className="hidden h-5 w-px shrink-0 bg-line sm:block" />
      <nav aria-label="Sections" className="flex min-w-0 items-center gap-1 overflow-x-auto">
        {NAV_ITEMS.map((item) => {
          const active = isActiveNavItem(item, pathname);
          return (
            <Link
              key={item.href}
              href={item.href}
              aria-current={active ? "page" : undefined}
              data-testid={`nav-${item.label.toLowerCase()}`}
              className={`whitespace-nowrap rounded-md px-2.5 py-1 text-sm ${
                active ? "bg-raised font-medium text-ink" : "text-muted hover:bg-raised hover:text-ink"
              }`}
            >
              {item.label}
            </Link>
          );
        })}
      </nav>
    </>
  );
}
