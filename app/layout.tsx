import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { TrpcQueryProvider } from "../components/trpc/trpc-provider";
import "./globals.css";

export const metadata: Metadata = {
  title: "Rath Studio",
  description: "Compose agents on a canvas, run them durably, and inspect the fork/merge session graph.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-zinc-50 text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <nav className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
          <div className="mx-auto flex max-w-5xl items-center gap-4 px-6 py-2 text-sm">
            <Link href="/" className="font-semibold" data-testid="nav-home">
              Rath Studio
            </Link>
          </div>
        </nav>
        <TrpcQueryProvider>{children}</TrpcQueryProvider>
      </body>
    </html>
  );
}
