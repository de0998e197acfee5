// Builds src/ with Parcel 2's API three ways, and writes, beside each output, Parcel's own
// bundle graph: the public id of every asset it put in each JavaScript bundle, with the public
// ids of the assets its dependencies resolve to (in that bundle or another).
//
//   OUT/parcel-<hoisted-min|hoisted|dev>/         the built files
//   OUT/parcel-<hoisted-min|hoisted|dev>.assets.json
//       {bundle file name: [{id, file, deps: [ids]}]}
//
// `hoisted-min` is what `parcel build` ships (scope-hoisted, minified); `hoisted` is the same
// unminified; `dev` is not scope-hoisted, so every asset is a factory in one prelude table.
// A scope-hoisted bundle registers only the assets Parcel must run lazily; the rest leave no
// factory, so there the assets listed bound what can be registered.
// Usage: node build.mjs OUT   (run from a directory whose node_modules has parcel, react,
// react-dom and lodash)
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const { Parcel } = require("@parcel/core");
const out = path.resolve(process.argv[2]);
const app = path.join(process.cwd(), "parcel-app");
cpSync(path.join(path.dirname(new URL(import.meta.url).pathname), "src"), app, { recursive: true });
process.env.NODE_ENV = "production";

for (const [name, shouldScopeHoist, shouldOptimize] of [
  ["hoisted-min", true, true],
  ["hoisted", true, false],
  ["dev", false, false],
]) {
  const distDir = path.join(out, `parcel-${name}`);
  mkdirSync(distDir, { recursive: true });
  const bundler = new Parcel({
    entries: path.join(app, "index.html"),
    defaultConfig: "@parcel/config-default",
    mode: "production",
    shouldDisableCache: true,
    shouldContentHash: true,
    defaultTargetOptions: { distDir, shouldOptimize, shouldScopeHoist, sourceMaps: false },
  });
  const { bundleGraph } = await bundler.run();
  const bundles = {};
  for (const bundle of bundleGraph.getBundles()) {
    if (bundle.type !== "js") continue;
    const assets = [];
    bundle.traverseAssets((asset) => {
      const deps = bundleGraph
        .getDependencies(asset)
        .map((dep) => bundleGraph.getResolvedAsset(dep, bundle))
        .filter(Boolean)
        .map((target) => bundleGraph.getAssetPublicId(target));
      assets.push({
        id: bundleGraph.getAssetPublicId(asset),
        file: path.relative(process.cwd(), asset.filePath),
        deps: [...new Set(deps)].sort(),
      });
    });
    bundles[path.basename(bundle.filePath)] = assets;
  }
  writeFileSync(path.join(out, `parcel-${name}.assets.json`), JSON.stringify(bundles, null, 1));
}
