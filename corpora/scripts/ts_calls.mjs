// The oracle of resolved calls: TypeScript's own checker, asked which function each call of a
// plain name calls. Reads and binds the files as JavaScript (allowJs, relative requires and
// imports resolved among them); runs none of them.
//
// Usage: node ts_calls.mjs TYPESCRIPT_DIR ROOT FILE...   (FILEs relative to ROOT)
// Prints one JSON array of {file, start, callee, target: {file, name} | null}: every call
// `name(…)` in the files, where start is the call's UTF-16 offset and target the function
// declaration (or the variable initialized with a function expression or arrow) the checker
// resolves the name to, through imports and requires, when it is one in the files given.
import { createRequire } from "node:module";
import path from "node:path";

const [tsDir, root, ...files] = process.argv.slice(2);
const ts = createRequire(path.join(path.resolve(tsDir), "package.json"))("./lib/typescript.js");
const base = path.resolve(root);
const absolute = files.map((f) => path.join(base, f));
const program = ts.createProgram(absolute, {
  allowJs: true,
  checkJs: false,
  noEmit: true,
  noLib: false,
  types: [],
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
});
const checker = program.getTypeChecker();
const given = new Set(absolute);

function target(symbol) {
  if (!symbol) return null;
  if (symbol.flags & ts.SymbolFlags.Alias) {
    try {
      symbol = checker.getAliasedSymbol(symbol);
    } catch {
      return null;
    }
  }
  const decl = symbol.valueDeclaration;
  if (!decl) return null;
  const file = decl.getSourceFile().fileName;
  if (!given.has(path.resolve(file))) return null;
  let name = null;
  if (ts.isFunctionDeclaration(decl) && decl.name) name = decl.name.text;
  if (
    ts.isVariableDeclaration(decl) &&
    ts.isIdentifier(decl.name) &&
    decl.initializer &&
    (ts.isArrowFunction(decl.initializer) || ts.isFunctionExpression(decl.initializer))
  ) {
    name = decl.name.text;
  }
  if (name === null) return null;
  return { file: path.relative(base, file).split(path.sep).join("/"), name };
}

const out = [];
for (const file of absolute) {
  const source = program.getSourceFile(file);
  if (!source) continue;
  const rel = path.relative(base, file).split(path.sep).join("/");
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      out.push({
        file: rel,
        start: node.getStart(source),
        callee: node.expression.text,
        target: target(checker.getSymbolAtLocation(node.expression)),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
process.stdout.write(JSON.stringify(out));
