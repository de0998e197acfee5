import { twice } from "./util";
export function label(n: number): string {
  return "n=" + twice(n);
}
