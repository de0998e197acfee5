// A static export (`out/`), as Electron apps ship a Next.js renderer. REA_NEXT_IDS=named builds
// with named module ids and no minifier, the form Turbopack's development output takes.
const named = process.env.REA_NEXT_IDS === "named";
export default {
  output: "export",
  experimental: named ? { turbopackMinify: false, turbopackModuleIds: "named" } : {},
};
