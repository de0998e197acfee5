import "./format.css";

export function format(value) {
  return `[${String(value).padStart(8, " ")}]`;
}
