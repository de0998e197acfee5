// ES modules that TypeScript compiles into one file of named AMD defines (`--module amd
// --outFile`).
import { twice } from "./lib/util";
import * as format from "./lib/format";
import { readFileSync } from "fs";

export async function run(path: string): Promise<string> {
  const later = await import("./lazy");
  return format.label(twice(readFileSync(path).length)) + later.note;
}
