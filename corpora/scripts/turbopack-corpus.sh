#!/usr/bin/env bash
# Builds the Turbopack corpus once into DEST (under target/): corpora/javascript/next-app, an
# Electron app whose renderer is a Next.js site exported by `next build` (Next.js 16, whose
# default bundler is Turbopack), built two ways, each beside the main process and preload as
# written:
#
#   DEST/corpus/next-<min|named>/                     main.js, preload.js, package.json, out/
#   DEST/corpus/next-<min|named>.client-modules.json  the oracle (below)
#
# `min` is the production default (minified, numeric module ids); `named` has Turbopack's
# named module ids and no minifier. The oracle is Next.js's own record of each build: the
# client reference manifest of each page (every client component's module id and the chunks
# it loads with) and the build manifest's root main files (the chunks every page loads first,
# which the former leaves out), as {"root_main_files": ["static/chunks/x.js", …], "pages":
# {"<page>": {"<module>": {"id": …, "chunks": ["/_next/static/chunks/x.js", …]}}}}.
# A rebuild happens when this script or the app changes.
set -euo pipefail
dest="$(realpath -m "${1:?usage: turbopack-corpus.sh DEST}")"
here="$(cd "$(dirname "$0")/.." && pwd)"
app="$here/javascript/next-app"
stamp="$(cat "$0" $(find "$app" -type f | sort) | sha256sum | cut -d' ' -f1)"
. "$(dirname "$0")/corpus.sh"
corpus_begin "$dest" "$stamp"
site="$tmp/site"
cp -r "$app/site" "$site"
(
  cd "$site"
  npm install --no-audit --no-fund --loglevel=error next@16.5.0 react@19.3.1 react-dom@19.3.1 >/dev/null
)
mkdir -p "$tmp/corpus"
for mode in min named; do
  (
    cd "$site"
    rm -rf .next out
    if [ "$mode" = named ]; then export REA_NEXT_IDS=named; fi
    NEXT_TELEMETRY_DISABLED=1 npx next build >/dev/null
  )
  built="$tmp/corpus/next-$mode"
  mkdir -p "$built"
  cp "$app"/electron/* "$built/"
  cp -r "$site/out" "$built/out"
  # The manifests assign `globalThis.__RSC_MANIFEST[page]`; Node reads them as Next.js does.
  node -e '
    const fs = require("fs"), path = require("path"), vm = require("vm");
    const root = process.argv[1], pages = {};
    const build = JSON.parse(fs.readFileSync(path.join(root, "../../build-manifest.json"), "utf8"));
    const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]);
    for (const file of walk(root).filter((f) => f.endsWith("_client-reference-manifest.js")).sort()) {
      const sandbox = { globalThis: {} };
      vm.runInNewContext(fs.readFileSync(file, "utf8"), sandbox);
      for (const [page, manifest] of Object.entries(sandbox.globalThis.__RSC_MANIFEST)) {
        const modules = {};
        for (const [name, entry] of Object.entries(manifest.clientModules)) {
          modules[name] = { id: entry.id, chunks: entry.chunks };
        }
        pages[page] = modules;
      }
    }
    const out = { root_main_files: build.rootMainFiles, pages };
    process.stdout.write(JSON.stringify(out, null, 1));
  ' "$site/.next/server/app" > "$tmp/corpus/next-$mode.client-modules.json"
done
rm -rf "$site"
corpus_end
