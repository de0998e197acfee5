#!/usr/bin/env bash
# Builds the bundle corpus once into DEST (under target/): the app in corpora/javascript/bundle-app
# bundled by webpack 5 and rspack (development and minified production, classic and ES-module
# output) and by esbuild (ESM with splitting, and CommonJS), each with the bundler's own record
# as the oracle; and the Electron app in corpora/javascript/electron-app built by webpack, rspack,
# esbuild, rollup (what electron-vite bundles with), rolldown and tsc, whose facts
# corpora/javascript/electron-app/truth.json lists:
#
#   DEST/corpus/<bundler>[-esm]-<mode>/               the output files
#   DEST/corpus/<bundler>[-esm]-<mode>.factories.json {output file: [module ids]} from the stats
#   DEST/corpus/esbuild-<format>.meta.json            esbuild's metafile
#   DEST/corpus/electron-<tool>[-factories|-esm]/     the built Electron app
#   DEST/corpus/electron-<webpack|rspack>-split/      its main process split by a dynamic import
#                                                     (CommonJS chunks; split-truth.json), with
#                                                     <build>.factories.json from the stats
#   DEST/corpus/browserify[-full-paths]/              corpora/javascript/browserify-app bundled
#   DEST/corpus/browserify.deps.json                  browserify's own dependency records
#   DEST/corpus/native-<forge|node-loader>/           corpora/javascript/native-app, whose add-on
#                                                     webpack's native-module loaders relocate
#   DEST/corpus/native-<…>.assets.json                the .node assets webpack emitted
#   DEST/corpus/channels-tsc-<cjs|esm>/               corpora/javascript/channels-app compiled by
#                                                     tsc, its channels in a module of their own
#                                                     (read through a barrel), then bundled as
#   DEST/corpus/channels-<bundler>-<format>-<mode>/   webpack, rspack and esbuild builds of it,
#                                                     and <webpack|rspack>-esm-nocat (production,
#                                                     module concatenation off)
#   DEST/corpus/vite-<relative|absolute>/             corpora/javascript/vite-app built by Vite
#                                                     with a relative and an absolute base, each
#                                                     with Vite's manifest.json as the oracle
#   DEST/corpus/toolkit-<cjs|esm>/                    corpora/javascript/toolkit-app (electron-vite's
#                                                     template shape) bundled by rollup, with the
#                                                     real @electron-toolkit/preload and
#                                                     @electron-toolkit/typed-ipc in node_modules
#   DEST/corpus/vue-cli-electron/                     vue-cli-plugin-electron-builder's generated
#                                                     main process and its createProtocol, from
#                                                     the plugin's tarball, bundled by webpack
#                                                     (corpora/javascript/vue-cli-app/truth.json)
#
# A rebuild happens when this script or any file of the apps changes (their digest is the
# stamp).
set -euo pipefail
dest="$(realpath -m "${1:?usage: bundles-corpus.sh DEST}")"
here="$(cd "$(dirname "$0")/.." && pwd)"
stamp="$(cat "$0" $(find "$here/javascript/bundle-app" "$here/javascript/electron-app" "$here/javascript/browserify-app" "$here/javascript/native-app" "$here/javascript/channels-app" "$here/javascript/vite-app" "$here/javascript/toolkit-app" "$here/javascript/vue-cli-app" -type f | LC_ALL=C sort) | sha256sum | cut -d' ' -f1)"
. "$(dirname "$0")/corpus.sh"
corpus_begin "$dest" "$stamp"
mkdir -p "$tmp/tools"
(
  cd "$tmp/tools"
  npm init -y >/dev/null
  npm install --no-audit --no-fund --loglevel=error \
    webpack@5.112.2 @rspack/core@2.3.2 esbuild@0.28.2 lodash-es@4.18.1 typescript@5.9.3 \
    rollup@4.68.9 @rollup/plugin-terser@1.0.2 browserify@17.0.1 qs@6.17.1 \
    node-loader@2.1.0 @vercel/webpack-asset-relocator-loader@1.7.3 vite@6.4.6 \
    rolldown@1.3.4 >/dev/null
  node "$here/javascript/bundle-app/build.mjs" "$tmp/out"
  node "$here/javascript/electron-app/build.mjs" "$tmp/out"
  node "$here/javascript/browserify-app/build.mjs" "$tmp/out"
  node "$here/javascript/native-app/build.mjs" "$tmp/out"
  node "$here/javascript/channels-app/build.mjs" "$tmp/out"
  node "$here/javascript/vite-app/build.mjs" "$tmp/out"
  # Unpacked from its tarball: installing it would install its peer `electron`, whose script
  # downloads Electron.
  npm pack --silent @electron-toolkit/preload@3.0.2 >/dev/null
  tar xzf electron-toolkit-preload-3.0.2.tgz
  # Its typed IPC classes, likewise (no dependencies of its own; `electron` is its peer).
  npm pack --silent @electron-toolkit/typed-ipc@1.0.2 >/dev/null
  mkdir typed-ipc && tar xzf electron-toolkit-typed-ipc-1.0.2.tgz -C typed-ipc
  node "$here/javascript/toolkit-app/build.mjs" "$tmp/out" package typed-ipc/package
  # vue-cli-plugin-electron-builder, from its tarball alone: its dependencies are its CLI's,
  # and the main process bundles only its `lib`.
  npm pack --silent vue-cli-plugin-electron-builder@2.1.1 >/dev/null
  mkdir vue-cli && tar xzf vue-cli-plugin-electron-builder-2.1.1.tgz -C vue-cli
  node "$here/javascript/vue-cli-app/build.mjs" "$tmp/out" vue-cli/package
)
mv "$tmp/out" "$tmp/corpus"
corpus_end
