import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { AccountMenu } from "../components/auth/account-menu";
import { AppHeader } from "../components/shell/app-header";
import { HistoryGate } from "../components/shell/history-gate";
import { SandboxNotice } from "../components/shell/sandbox-notice";
import { ThemeScript } from "../components/shell/theme-script";
import { Toaster } from "../components/shell/toaster";
import { TrpcQueryProvider } from "../components/trpc/trpc-provider";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Rath Studio", template: "%s · Rath Studio" },
  description: "Compose agents on a canvas, run them durably, and inspect the fork/merge session graph.",
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#16161a" },
  ],
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // The theme script sets the `dark` class before hydration; React must not complain about it.
    <html lang="en" suppressHydrationWarning>
      <head>
        <ThemeScript />
      </head>
      <body className="min-h-dvh bg-canvas text-ink antialiased">
        <TrpcQueryProvider>
          <AppHeader end={<AccountMenu />} />
          <SandboxNotice />
          {children}
          <Toaster />
          <HistoryGate />
        </TrpcQueryProvider>
      </body>
    </html>
  );
}
