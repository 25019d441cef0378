/**
 * Pure: a POSIX ustar archive of text files, so several files (the reference dialect's session files and lineage
 * export) download as one — browsers ask before a page downloads many files at once. Any tar reads it (tar -xf,
 * macOS Archive Utility, Windows tar). Files go under one directory; names must fit ustar's 100-byte name field.
 */

const BLOCK = 512;

function writeText(header: Uint8Array, offset: number, length: number, text: string): void {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > length) throw new Error(`tar header field too long: ${text}`);
  header.set(bytes, offset);
}

function writeOctal(header: Uint8Array, offset: number, length: number, value: number): void {
  writeText(header, offset, length, `${value.toString(8).padStart(length - 1, "0")}\0`);
}

function headerOf(directory: string, name: string, size: number, modifiedSeconds: number): Uint8Array {
  const header = new Uint8Array(BLOCK);
  writeText(header, 0, 100, name);
  writeOctal(header, 100, 8, 0o644);
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  writeOctal(header, 124, 12, size);
  writeOctal(header, 136, 12, modifiedSeconds);
  header.fill(0x20, 148, 156); // the checksum counts its own field as spaces
  header[156] = 0x30; // "0": a regular file
  writeText(header, 257, 6, "ustar\0");
  writeText(header, 263, 2, "00");
  writeText(header, 345, 155, directory);
  const checksum = header.reduce((sum, byte) => sum + byte, 0);
  writeText(header, 148, 8, `${checksum.toString(8).padStart(6, "0")}\0 `);
  return header;
}

/** The archive of `files` under `directory` (modification time `modified`). */
export function tarArchive(directory: string, files: ReadonlyArray<{ name: string; content: string }>, modified = new Date()): Uint8Array<ArrayBuffer> {
  const seconds = Math.floor(modified.getTime() / 1000);
  const parts: Uint8Array[] = [];
  for (const file of files) {
    if (file.name.includes("/")) throw new Error(`tar entry names are plain file names: ${file.name}`);
    const content = new TextEncoder().encode(file.content);
    parts.push(headerOf(directory, file.name, content.length, seconds), content, new Uint8Array((BLOCK - (content.length % BLOCK)) % BLOCK));
  }
  parts.push(new Uint8Array(2 * BLOCK));
  const archive = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    archive.set(part, offset);
    offset += part.length;
  }
  return archive;
}
