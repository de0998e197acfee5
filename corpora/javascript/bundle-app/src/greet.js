export function greet(name) {
  return `hello, ${name}`;
}
export const punctuation = "!";
