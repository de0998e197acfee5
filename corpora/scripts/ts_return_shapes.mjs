// The oracle of export shapes: TypeScript's own checker, asked what each export of each file is
// and what each exported function returns. Reads and type-checks the files as JavaScript
// (allowJs, strict); runs none of them.
//
// Usage: node ts_return_shapes.mjs TYPESCRIPT_DIR ROOT FILE...   (FILEs relative to ROOT)
// Prints {file: {export: {kind: "function"|"value", types: [type…] | null, arity}}} (a
// function's arity: its parameters before the first default or rest one), where each type
// is one constituent of the (awaited) return type, or of a value's type: "string", "number",
// "bigint", "boolean", "null", "undefined", "function", "array", or "object:k1,k2" (required
// properties, sorted); `types` is null when TypeScript's answer is any, unknown, a class
// instance or anything else it cannot say as one of these. The CommonJS `export=` is `default`.
import { createRequire } from "node:module";
import path from "node:path";

const [tsDir, root, ...files] = process.argv.slice(2);
const ts = createRequire(path.join(path.resolve(tsDir), "package.json"))("./lib/typescript.js");
const absolute = files.map((f) => path.join(path.resolve(root), f));
const program = ts.createProgram(absolute, {
  allowJs: true,
  checkJs: false,
  noEmit: true,
  strict: true,
  noResolve: true,
  skipLibCheck: true,
  noLib: false,
  types: [],
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
});
const checker = program.getTypeChecker();

function describe(type, depth = 0) {
  if (depth > 4) return null;
  const f = type.flags;
  if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never)) return null;
  if (type.isUnion()) {
    const out = new Set();
    for (const t of type.types) {
      const d = describe(t, depth + 1);
      if (d === null) return null;
      d.forEach((x) => out.add(x));
    }
    return [...out];
  }
  if (f & ts.TypeFlags.StringLike) return ["string"];
  if (f & ts.TypeFlags.NumberLike) return ["number"];
  if (f & ts.TypeFlags.BigIntLike) return ["bigint"];
  if (f & ts.TypeFlags.BooleanLike) return ["boolean"];
  if (f & ts.TypeFlags.Null) return ["null"];
  if (f & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return ["undefined"];
  if (f & ts.TypeFlags.Object) {
    if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) {
      return ["function"];
    }
    if (checker.isArrayType(type) || checker.isTupleType(type)) return ["array"];
    // Only anonymous object types (object literals); a class instance or a library type is
    // not a shape the reading spells out.
    if (!(type.objectFlags & ts.ObjectFlags.Anonymous) && !(type.objectFlags & ts.ObjectFlags.ObjectLiteral)) {
      return null;
    }
    const keys = checker
      .getPropertiesOfType(type)
      .filter((p) => !(p.flags & ts.SymbolFlags.Optional))
      .map((p) => p.name)
      .sort();
    return [`object:${keys.join(",")}`];
  }
  return null;
}

function isAsync(declaration) {
  const mods = declaration && ts.canHaveModifiers(declaration) ? ts.getModifiers(declaration) : undefined;
  return Boolean(mods?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword));
}

const out = {};
for (const [i, file] of files.entries()) {
  const sf = program.getSourceFile(absolute[i]);
  const entry = (out[file] = {});
  // A CommonJS file's symbol is its source file's own (the checker resolves only ES modules).
  const symbol = sf && (checker.getSymbolAtLocation(sf) ?? (sf.symbol && checker.getMergedSymbol(sf.symbol)));
  if (!symbol) continue;
  const whole = symbol.exports?.get("export=");
  const named = whole ? [] : checker.getExportsOfModule(symbol);
  for (let exported of whole ? [whole] : named) {
    const name = whole ? "default" : exported.name;
    if (exported.flags & ts.SymbolFlags.Alias) exported = checker.getAliasedSymbol(exported);
    const declaration = exported.valueDeclaration ?? exported.declarations?.[0];
    if (!declaration) continue;
    const type = checker.getTypeOfSymbolAtLocation(exported, declaration);
    // `module.exports = {…}` exports each key, as Node.js's CommonJS lexer names them.
    if (
      whole &&
      ts.isBinaryExpression(declaration) &&
      ts.isObjectLiteralExpression(declaration.right) &&
      declaration.right.properties.length > 0
    ) {
      for (const property of checker.getPropertiesOfType(type)) {
        entry[property.name] = describeExport(checker.getTypeOfSymbolAtLocation(property, declaration));
      }
      continue;
    }
    entry[name] = describeExport(type);
  }
}

function describeExport(type) {
  const signatures = type.getCallSignatures();
  if (signatures.length === 1 && type.getConstructSignatures().length === 0) {
    let returns = checker.getReturnTypeOfSignature(signatures[0]);
    const fn = signatures[0].getDeclaration();
    if (isAsync(fn)) returns = checker.getAwaitedType(returns) ?? returns;
    // A function's `length`: its parameters before the first default or rest parameter.
    const params = fn?.parameters ?? [];
    const first = params.findIndex((p) => p.initializer || p.dotDotDotToken);
    const arity = first === -1 ? params.length : first;
    return { kind: "function", types: describe(returns), arity };
  }
  if (signatures.length === 0 && type.getConstructSignatures().length === 0) {
    return { kind: "value", types: describe(type) };
  }
  return { kind: "other", types: null };
}
process.stdout.write(JSON.stringify(out));
