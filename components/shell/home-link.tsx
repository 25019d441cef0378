"use client";
/**
 * The product mark in the header: a link home, except on a share page, whose reader may have no account (home would
 * ask them to sign in): there it links to the shared run itself.
 */
import Link from "next/link";
import { usePathname } from "next/navigation";
import { isSharePage } from "./nav-items";
import { RathMark } from "./rath-mark";

/** The mark and the product name (the name only from `sm` up; always named for screen readers). */
export function HomeLink() {
  const pathname = usePathname();
  const shared = isSharePage(pathname);
  return (
    <Link
      href={shared ? pathname : "/"}
      title={shared ? "This shared run" : undefined}
      className="flex shrink-0 items-center gap-2 rounded-md pr-1 font-semibold tracking-tight text-ink"
      data-testid="nav-home"
    >
      <RathMark className="size-5" />
      <span className="sr-only text-sm sm:not-sr-only">Rath Studio</span>
    </Link>
  );
}
