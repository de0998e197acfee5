// What main.ts uses of Node's `fs`, which stays a dependency of the built module.
declare module "fs" {
  export function readFileSync(path: string): { length: number };
}
