"use client";
/** Toasts for background results (saved, run finished, copy done), themed with the page. */
import { Toaster as SonnerToaster } from "sonner";
import { useIsDark } from "./use-theme";

/** Mount once, in the root layout. */
export function Toaster() {
  const dark = useIsDark();
  return <SonnerToaster theme={dark ? "dark" : "light"} position="bottom-right" closeButton richColors={false} />;
}
