/** @type {import("next").NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // `npm test` typechecks the whole repository once (tsc); the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
  // Native and server-only packages stay external to the server bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/client", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "pg"],
};

export default nextConfig;
