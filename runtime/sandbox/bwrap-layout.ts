/**
 * What a bubblewrap sandbox sees: system directories read-only, a minimal /etc (generated passwd, group, hosts,
 * hostname, nsswitch.conf plus a short list of harmless host files — never shadow files), the Node.js installation
 * the server runs on when it lives outside /usr, a private /tmp and /proc, a minimal /dev, and the workspace as the
 * only writable host directory. Everything else of the host — /root, /home, /var, the project, its database — is
 * simply absent.
 */
import { lstat, mkdtemp, readdir, readlink, realpath, writeFile } from "node:fs/promises";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Where the workspace appears inside a bubblewrap sandbox. */
export const BWRAP_WORKSPACE = "/tmp/workspace";

/** The unprivileged user and group tools run as inside the sandbox. */
export const SANDBOX_UID = 65534;
export const SANDBOX_GID = 65534;
export const SANDBOX_USER = "sandbox";
export const SANDBOX_HOSTNAME = "sandbox";

/** System directories bound read-only (or recreated as the same symlinks, on merged-/usr systems). */
const SYSTEM_PATHS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] as const;

/** Host files and directories of /etc that programs read and that hold no secrets. */
const HOST_ETC_ENTRIES = [
  "alternatives",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "localtime",
  "timezone",
  "os-release",
  "debian_version",
  "protocols",
  "services",
  "mime.types",
  "ssl",
  "ca-certificates",
  "perl",
] as const;

/** Host /etc entries matched by prefix (Debian keeps Python's site configuration in /etc/python3.X). */
const HOST_ETC_PREFIXES = ["python3"] as const;

/** The part of a sandbox's layout that does not depend on the call: system binds and the generated /etc. */
export interface BwrapLayout {
  /** bwrap arguments for /usr, /bin, ..., /etc and the Node.js installation. */
  readonly systemArguments: readonly string[];
  /** PATH inside the sandbox. */
  readonly path: string;
}

let generatedEtc: Promise<string> | null = null;

/** Writes the generated /etc files once per process into a private directory (removed when the process exits). */
function generatedEtcDirectory(): Promise<string> {
  generatedEtc ??= (async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "rath-sandbox-etc-"));
    process.once("exit", () => rmSync(directory, { recursive: true, force: true }));
    const files: Record<string, string> = {
      passwd: `root:x:0:0:root:/nonexistent:/usr/sbin/nologin\n${SANDBOX_USER}:x:${SANDBOX_UID}:${SANDBOX_GID}:Rath sandbox:${BWRAP_WORKSPACE}:/bin/sh\n`,
      group: `root:x:0:\n${SANDBOX_USER}:x:${SANDBOX_GID}:\n`,
      hosts: `127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\t${SANDBOX_HOSTNAME}\n`,
      hostname: `${SANDBOX_HOSTNAME}\n`,
      "nsswitch.conf": "passwd: files\ngroup: files\nhosts: files\n",
    };
    for (const [name, content] of Object.entries(files)) await writeFile(path.join(directory, name), content, { mode: 0o644 });
    return directory;
  })();
  return generatedEtc;
}

/** `--symlink` for a symlink, `--ro-bind` for anything else, nothing when missing. */
async function replicate(hostPath: string): Promise<string[]> {
  const stat = await lstat(hostPath).catch(() => null);
  if (!stat) return [];
  if (stat.isSymbolicLink()) return ["--symlink", await readlink(hostPath), hostPath];
  return ["--ro-bind", hostPath, hostPath];
}

function isUnder(candidate: string, root: string): boolean {
  return candidate === root || candidate.startsWith(`${root}/`);
}

/**
 * The directory to bind for the Node.js that runs this process, or null when it is under a system path already:
 * the installation prefix for a `<prefix>/bin/node` layout (nvm, official tarballs), so `npm` and `npx` work too.
 */
async function nodeInstallation(): Promise<{ bind: string; bin: string } | null> {
  const binary = await realpath(process.execPath).catch(() => process.execPath);
  const bin = path.dirname(binary);
  const resolvedSystem = await Promise.all(SYSTEM_PATHS.map((entry) => realpath(entry).catch(() => null)));
  if (resolvedSystem.some((root) => root !== null && isUnder(bin, root))) return null;
  const bind = path.basename(bin) === "bin" ? path.dirname(bin) : bin;
  return { bind, bin };
}

/** Builds the call-independent part of the layout from what this host has. */
export async function bwrapLayout(): Promise<BwrapLayout> {
  const systemArguments: string[] = [];
  for (const entry of SYSTEM_PATHS) systemArguments.push(...(await replicate(entry)));
  const etc = await generatedEtcDirectory();
  for (const name of ["passwd", "group", "hosts", "hostname", "nsswitch.conf"]) {
    systemArguments.push("--ro-bind", path.join(etc, name), `/etc/${name}`);
  }
  const hostEtc = await readdir("/etc").catch(() => [] as string[]);
  const names = [...HOST_ETC_ENTRIES, ...hostEtc.filter((name) => HOST_ETC_PREFIXES.some((prefix) => name.startsWith(prefix)))];
  for (const name of names) systemArguments.push(...(await replicate(path.join("/etc", name))));
  const searchPath = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];
  const node = await nodeInstallation();
  if (node) {
    systemArguments.push("--ro-bind", node.bind, node.bind);
    searchPath.unshift(node.bin);
  }
  return { systemArguments, path: searchPath.join(":") };
}

/**
 * The full bwrap argument list before `--`: namespaces (user, pid, network, ipc, uts, cgroup; no nested user
 * namespaces), an unprivileged uid/gid, no capabilities, a new session, death with the parent, the layout, a
 * private /proc, /dev and size-limited /tmp, the workspace, and finally the root remounted read-only.
 */
export function bwrapArguments(layout: BwrapLayout, hostDir: string, temporaryBytes: number): string[] {
  return [
    "--unshare-user",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--disable-userns",
    "--uid", String(SANDBOX_UID),
    "--gid", String(SANDBOX_GID),
    "--hostname", SANDBOX_HOSTNAME,
    "--cap-drop", "ALL",
    "--die-with-parent",
    "--new-session",
    ...layout.systemArguments,
    "--proc", "/proc",
    "--dev", "/dev",
    "--size", String(temporaryBytes),
    "--tmpfs", "/tmp",
    "--bind", hostDir, BWRAP_WORKSPACE,
    "--remount-ro", "/",
    "--chdir", BWRAP_WORKSPACE,
  ];
}
