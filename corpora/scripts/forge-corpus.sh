#!/usr/bin/env bash
# Builds the Electron Forge corpus once into DEST (under target/): corpora/javascript/forge-app
# built as Forge's webpack plugin builds an app for packaging (the plugin's own webpack config
# generator, production mode; see that app's build.mjs), as a tree and packed by @electron/asar:
#
#   DEST/corpus/forge-webpack/        .webpack/main, .webpack/renderer/<entry point>, package.json
#   DEST/corpus/forge-webpack.asar
#
# The plugin is installed from its npm tarball alone: its config generator needs only webpack,
# webpack-merge, html-webpack-plugin and debug, while its full dependency tree (Forge's core
# utilities, @electron/rebuild) fetches a git dependency. A rebuild happens when this script or
# the app changes.
set -euo pipefail
dest="$(realpath -m "${1:?usage: forge-corpus.sh DEST}")"
here="$(cd "$(dirname "$0")/.." && pwd)"
stamp="$(cat "$0" $(find "$here/javascript/forge-app" -type f | sort) | sha256sum | cut -d' ' -f1)"
. "$(dirname "$0")/corpus.sh"
corpus_begin "$dest" "$stamp"
mkdir -p "$tmp/tools"
(
  cd "$tmp/tools"
  echo '{"name": "forge-corpus", "private": true}' > package.json
  npm install --no-audit --no-fund --loglevel=error webpack@5.99.9 webpack-merge@5.10.0 \
    html-webpack-plugin@5.6.3 debug@4.4.1 @electron/asar@3.4.1 >/dev/null
  tarball="$(npm pack --silent @electron-forge/plugin-webpack@7.11.2)"
  mkdir -p node_modules/@electron-forge/plugin-webpack
  tar -xzf "$tarball" -C node_modules/@electron-forge/plugin-webpack --strip-components=1
  node "$here/javascript/forge-app/build.mjs" "$tmp/corpus"
)
rm -rf "$tmp/tools"
corpus_end
