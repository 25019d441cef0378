/** Saves what the page holds (text or bytes) as a file download (a blob URL on a temporary link, freed after). */
export function downloadFile(fileName: string, data: string | Uint8Array<ArrayBuffer>, type = "application/json"): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = fileName;
  anchor.click();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The size of a text in UTF-8, for people: "512 B", "12.3 KB", "4.1 MB". */
export function formatBytes(text: string): string {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
