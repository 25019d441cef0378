/**
 * Model output rendered as markdown stays inert: raw HTML is text, links open a new tab with rel="noopener
 * noreferrer" (and nothing but http(s)/mailto is a link), and a remote image is not loaded until asked.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SafeMarkdown, safeUrl } from "./safe-markdown";

const render = (text: string) => renderToStaticMarkup(createElement(SafeMarkdown, { text }));

describe("SafeMarkdown", () => {
  it("opens http(s) links in a new tab with rel noopener noreferrer", () => {
    const html = render("See [the docs](https://example.com/a?b=1).");
    expect(html).toContain('href="https://example.com/a?b=1"');
    expect(html).toContain('target="_blank"');
    expect(html).toMatch(/rel="noopener noreferrer[^"]*"/);
  });

  it("turns javascript: and data: links into plain text", () => {
    const html = render("[one](javascript:alert(1)) and [two](data:text/html,<b>x</b>)");
    expect(html).not.toContain("<a");
    expect(html).toContain('data-testid="markdown-neutralised-link"');
  });

  it("does not load a remote image: a placeholder names the host instead", () => {
    const html = render("![chart](https://images.example.org/chart.png)");
    expect(html).not.toContain("<img");
    expect(html).toContain('data-testid="markdown-image-placeholder"');
    expect(html).toContain("images.example.org");
    expect(render("![x](data:image/png;base64,AAAA)")).toContain("image blocked");
  });

  it("shows raw HTML as text, never as elements", () => {
    const html = render('<script>alert(1)</script><img src=x onerror=alert(2)><b>bold</b>');
    expect(html).not.toMatch(/<script|<img|<b>/);
  });

  it("safeUrl allows http(s) and mailto links, and http(s) images only", () => {
    expect(safeUrl("mailto:a@example.com")).toBe("mailto:a@example.com");
    expect(safeUrl("mailto:a@example.com", true)).toBeNull();
    expect(safeUrl(" javascript:alert(1)")).toBeNull();
    expect(safeUrl("#section")).toBe("#section");
  });
});
