// Compiles src/ file by file with TypeScript's `tsc`, as apps that do not bundle ship it, to
// CommonJS (`channels_1.IPC.window.CLOSE` after `require("./channels")`, enums exported as
// `Channel || (exports.Channel = Channel = {})`) and to ES modules (`import { IPC } from
// "./channels"`, `export var Channel`). Every channel is a member of another file's exports.
// Usage: node build.mjs OUT   (run from a directory whose node_modules has typescript)
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const out = path.resolve(process.argv[2]);
const app = path.dirname(new URL(import.meta.url).pathname);
const tsc = path.join(path.dirname(require.resolve("typescript/package.json")), "bin", "tsc");
const sources = ["channels", "main", "preload"].map((f) => path.join(app, "src", `${f}.ts`));
for (const [name, module] of [["channels-tsc-cjs", "commonjs"], ["channels-tsc-esm", "esnext"]]) {
  const dir = path.join(out, name);
  // `electron` has no types here: tsc reports that and still writes every file.
  try {
    execFileSync(process.execPath, [tsc, "--module", module, "--target", "es2020", "--esModuleInterop",
      "--skipLibCheck", "--noResolve", "--outDir", dir, ...sources], { stdio: "pipe" });
  } catch (error) {
    if (!String(error.stdout).includes("TS2307") && !String(error.stdout).includes("TS2792")) throw error;
  }
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "rea-channels-corpus", version: "1.0.0", main: "main.js" }));
}
