export function run() {
  return fetch("https://api.example.invalid/v1/items?token=secret");
}
