import { greet } from "./greet.js";
export function later(groups) {
  return fetch("https://api.example.test/v1/later?token=lazy-secret").then(() => greet(String(groups.length)));
}
