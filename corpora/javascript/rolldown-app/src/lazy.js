export function run() {
  return fetch("https://api.example.com/lazy");
}
